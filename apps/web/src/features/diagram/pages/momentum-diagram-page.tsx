import { DiagramPage } from './diagram-page.tsx';

/** /momentum/diagram: filter → trigger → channel → finish. */
export default function MomentumDiagramPage() {
  return <DiagramPage kind="momentum" />;
}
