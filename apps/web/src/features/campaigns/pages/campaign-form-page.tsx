import { MomentumFormPage } from '../../momentums/index.ts';

/** Campaigns use the momentum form without Gatilhos and Finalização. */
export default function CampaignCreatePage() {
  return <MomentumFormPage type="campaign" />;
}
