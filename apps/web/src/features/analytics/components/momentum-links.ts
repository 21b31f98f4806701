import type { MomentumPerformanceRow } from '@impeto/shared';
import { withDomain } from '../../../lib/navigation.ts';

export const MOMENTUM_TYPE_LABELS: Record<MomentumPerformanceRow['type'], string> = {
  momentum: 'Momentum',
  campaign: 'Campanha',
  dcm: 'GCD',
};

/** An item's A/B test and control group report (issue #25). */
export const experimentHref = (uuid: string, domainUuid: string) =>
  withDomain(`/v2/experiment?uuid=${encodeURIComponent(uuid)}`, domainUuid);

/** A momentum's journey report: the funnel of its steps (issue #26). */
export const journeyHref = (uuid: string, domainUuid: string) =>
  withDomain(`/v2/journey?uuid=${encodeURIComponent(uuid)}`, domainUuid);

/** Where a row of the dashboard leads: the item's view page. */
export function momentumHref(type: MomentumPerformanceRow['type'], uuid: string, domainUuid: string) {
  if (type === 'dcm') return withDomain('/dcm', domainUuid);
  const path = type === 'campaign' ? '/v2/campaign/create' : '/v2/momentum/create';
  return withDomain(`${path}?id=${encodeURIComponent(uuid)}&view=1`, domainUuid);
}
