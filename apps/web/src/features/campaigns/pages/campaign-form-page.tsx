import { usePageTitle } from '../../../lib/page-title.ts';
import { MomentumFormPage } from '../../momentums/index.ts';

/** Campaigns use the momentum form without Gatilhos and Finalização. */
export default function CampaignCreatePage() {
  usePageTitle('Campanha');
  return <MomentumFormPage type="campaign" />;
}
