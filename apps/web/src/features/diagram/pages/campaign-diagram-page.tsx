import { usePageTitle } from '../../../lib/page-title.ts';
import { DiagramPage } from './diagram-page.tsx';

/** /campaign/diagram: filter → channel. */
export default function CampaignDiagramPage() {
  usePageTitle('Diagrama da campanha');
  return <DiagramPage kind="campaign" />;
}
