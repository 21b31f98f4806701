import { z } from '../zod.ts';

// On-site messages (SUPERARE_WEBVIEW deliveries) as the tag receives them: in the `onsite` list of the
// answer to POST /collect and of GET /collect/pending?id=<gero_id>&vid=<visitor> (DESIGN.md §10, §11).

export const ONSITE_TYPES = ['notification_box', 'topbar', 'alert_box'] as const;
export const ONSITE_MODES = [
  'devices_all',
  'devices_mobile',
  'devices_smartphone',
  'devices_tablets',
  'devices_desktops',
] as const;

export const onsiteMessageSchema = z.object({
  /** The delivery id, reported back with `{ t: 'viewed' | 'clicked', d }`. */
  d: z.string(),
  type: z.enum(ONSITE_TYPES),
  /** Device target (spec doc 2 §3.6); devices_all by default. */
  mode: z.enum(ONSITE_MODES),
  /** The webview_props of doc 2 §3.6: texts, colours and URLs only, never HTML. */
  props: z.record(z.string(), z.string()),
});
export type OnsiteMessage = z.infer<typeof onsiteMessageSchema>;
export const pendingAnswerSchema = z.object({ onsite: z.array(onsiteMessageSchema) });
