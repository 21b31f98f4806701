import { msg } from '../messages.ts';
import { z } from '../zod.ts';

/** What the delivery log shows as a status (the engine's statuses, grouped the way a site owner reads them). */
export const DELIVERY_LOG_STATUSES = ['waiting', 'sending', 'sent', 'failed', 'skipped'] as const;
export type DeliveryLogStatus = (typeof DELIVERY_LOG_STATUSES)[number];

export const DELIVERY_LOG_PAGE_SIZE = 50;

export const deliveryLogQuerySchema = z.object({
  page: z.coerce.number({ error: msg.common.invalidInput }).int().min(1).max(100_000).default(1),
  status: z.enum(DELIVERY_LOG_STATUSES, { error: msg.common.invalidInput }).optional(),
});
export type DeliveryLogQuery = z.infer<typeof deliveryLogQuerySchema>;

export interface DeliveryLogItem {
  id: string;
  /** Masked e-mail or phone for SMS/e-mail channels, the visitor id otherwise. */
  recipient: string;
  channel_type: string;
  status: DeliveryLogStatus;
  /** The engine's status underneath (viewed, clicked, cancelled, expired …). */
  detail: string;
  /** Why it was not sent, or the provider's error. */
  reason: string | null;
  attempts: number;
  created_at: string;
  due_at: string;
  sent_at: string | null;
  viewed_at: string | null;
  clicked_at: string | null;
  /** The journey step (issue #26): 0 is the momentum's own message. */
  step: number;
  /** 'otherwise' for a split step's other message. */
  branch: 'main' | 'otherwise';
}

export interface DeliveryLogPage {
  items: DeliveryLogItem[];
  total: number;
  page: number;
  page_size: number;
}

/** A cap is a whole number from 1 to 1000; empty (null) means no cap. */
const cap = z.preprocess(
  (v) => (v === '' || v === undefined ? null : v),
  z.coerce
    .number({ error: msg.frequencyCap.invalid })
    .int(msg.frequencyCap.invalid)
    .min(1, msg.frequencyCap.invalid)
    .max(1000, msg.frequencyCap.invalid)
    .nullable(),
);

export const frequencyCapSchema = z.object({
  domain: z.object({ frequency_cap_day: cap, frequency_cap_week: cap }, { error: msg.common.invalidInput }),
});
export type FrequencyCapInput = z.input<typeof frequencyCapSchema>;
export interface FrequencyCap {
  frequency_cap_day: number | null;
  frequency_cap_week: number | null;
}
