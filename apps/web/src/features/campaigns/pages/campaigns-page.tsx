import { usePageTitle } from '../../../lib/page-title.ts';
import { MomentumList } from '../../momentums/index.ts';

export default function CampaignsPage() {
  usePageTitle('Campanhas');
  return <MomentumList type="campaign" />;
}
