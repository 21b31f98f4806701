import {
  DELIVERY_LOG_PAGE_SIZE,
  type DeliveryLogItem,
  type DeliveryLogPage,
  type DeliveryLogQuery,
  type DeliveryLogStatus,
  type FrequencyCap,
  msg,
} from '@impeto/shared';
import { z } from 'zod';
import type { AppContext } from '../../lib/context.ts';
import { notFound } from '../../lib/errors.ts';
import { recipientOf } from '../../lib/mask.ts';
import { requireCompanyDomain } from '../../lib/tenancy.ts';
import * as q from './deliveries.queries.ts';

export { maskEmail, maskPhone } from '../../lib/mask.ts';

const LOG_STATUS: Record<string, DeliveryLogStatus> = {
  queued: 'waiting',
  sending: 'sending',
  sent: 'sent',
  viewed: 'sent',
  clicked: 'sent',
  failed: 'failed',
  skipped: 'skipped',
  cancelled: 'skipped',
  expired: 'skipped',
};

const iso = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());

export async function deliveryLog(
  ctx: AppContext,
  companyUuid: string,
  momentumUuid: string,
  query: DeliveryLogQuery,
): Promise<DeliveryLogPage> {
  const momentum = z.uuid().safeParse(momentumUuid).success
    ? await q.findCompanyMomentum(ctx.db, companyUuid, momentumUuid)
    : undefined;
  if (!momentum) throw notFound(msg.deliveryLog.momentumNotFound, 'MOMENTUM_NOT_FOUND');
  const { rows, total } = await q.deliveryPage(
    ctx.db,
    momentum.uuid,
    query.status ? q.LOG_STATUS_SQL[query.status] : undefined,
    DELIVERY_LOG_PAGE_SIZE,
    (query.page - 1) * DELIVERY_LOG_PAGE_SIZE,
  );
  const items: DeliveryLogItem[] = rows.map((r) => ({
    id: r.id,
    recipient: recipientOf(r.channel_type, r),
    channel_type: r.channel_type,
    status: LOG_STATUS[r.status] ?? 'failed',
    detail: r.status,
    reason: r.error,
    attempts: r.attempts,
    created_at: iso(r.created_at)!,
    due_at: iso(r.due_at)!,
    sent_at: iso(r.sent_at),
    viewed_at: iso(r.viewed_at),
    clicked_at: iso(r.clicked_at),
    step: Number(r.step ?? 0),
    branch: r.branch === 'otherwise' ? 'otherwise' : 'main',
  }));
  return { items, total, page: query.page, page_size: DELIVERY_LOG_PAGE_SIZE };
}

const domainUuidOrNotFound = (uuid: string) => {
  if (!z.uuid().safeParse(uuid).success) throw notFound(msg.common.notFound, 'DOMAIN_NOT_FOUND');
  return uuid;
};

export async function readFrequencyCap(
  ctx: AppContext,
  companyUuid: string,
  domainUuid: string,
): Promise<FrequencyCap> {
  const domain = await requireCompanyDomain(ctx, companyUuid, domainUuidOrNotFound(domainUuid));
  const caps = await q.readCaps(ctx.db, domain.uuid);
  return { frequency_cap_day: caps?.frequency_cap_day ?? null, frequency_cap_week: caps?.frequency_cap_week ?? null };
}

export async function updateFrequencyCap(
  ctx: AppContext,
  companyUuid: string,
  domainUuid: string,
  caps: FrequencyCap,
): Promise<FrequencyCap> {
  const domain = await requireCompanyDomain(ctx, companyUuid, domainUuidOrNotFound(domainUuid));
  await q.writeCaps(ctx.db, domain.uuid, caps.frequency_cap_day, caps.frequency_cap_week);
  return caps;
}
