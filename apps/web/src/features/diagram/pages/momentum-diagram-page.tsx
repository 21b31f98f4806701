import { usePageTitle } from '../../../lib/page-title.ts';
import { DiagramPage } from './diagram-page.tsx';

/** /momentum/diagram: filter → trigger → channel → finish. */
export default function MomentumDiagramPage() {
  usePageTitle('Diagrama do momentum');
  return <DiagramPage kind="momentum" />;
}
