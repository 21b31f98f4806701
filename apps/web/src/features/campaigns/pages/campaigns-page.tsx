import { MomentumList } from '../../momentums/index.ts';

export default function CampaignsPage() {
  return <MomentumList type="campaign" />;
}
