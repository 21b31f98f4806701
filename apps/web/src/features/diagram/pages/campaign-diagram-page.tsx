import { DiagramPage } from './diagram-page.tsx';

/** /campaign/diagram: filter → channel. */
export default function CampaignDiagramPage() {
  return <DiagramPage kind="campaign" />;
}
