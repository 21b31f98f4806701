import { usePageTitle } from '../../../lib/page-title.ts';
import { MomentumList } from '../../momentums/index.ts';

export default function CampaignsPage() {
  // The spec's page title (doc 2 §2.1); the header keeps the plural.
  usePageTitle('Campanha');
  return <MomentumList type="campaign" />;
}
