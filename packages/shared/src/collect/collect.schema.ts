import { z } from '../zod.ts';

/** Limits of the collector's wire (DESIGN.md §11). */
export const COLLECT_LIMITS = { events: 500, bodyBytes: 512 * 1024, text: 2048, props: 50 } as const;

export const collectMessages = {
  invalidJson: 'O lote enviado não é um JSON válido.',
  invalidBatch: 'Lote inválido: informe id e a lista de eventos.',
  tooManyEvents: `Lote grande demais: no máximo ${COLLECT_LIMITS.events} eventos por envio.`,
  unknownId: 'Identificador de rastreamento desconhecido.',
  disabled: 'Este domínio está desativado e não recebe dados.',
  foreignOrigin: 'Origem não autorizada para este identificador de rastreamento.',
  invalidEvent: 'Evento inválido.',
  missingVisitor: 'Evento sem identificador de visitante (vid).',
  privateEndpoint: 'O endpoint da inscrição push precisa ser https e público.',
  accepted: 'Lote recebido.',
  busy: 'O coletor está sobrecarregado. Tente novamente em instantes.',
  invalidVisitor: 'Identificador de visitante (vid) inválido: tem caracteres que não podem ser gravados (como o nulo).',
  unstorableCategory: 'Categoria do evento inválida: tem caracteres que não podem ser gravados (como o nulo).',
  unstorableIdentifier: 'Evento inválido: identificador ou inscrição push com caracteres que não podem ser gravados.',
} as const;

const text = (max: number = COLLECT_LIMITS.text) => z.string().max(max);
const ts = z.number().int().positive().optional();
const scalar = z.union([z.string().max(500), z.number().finite(), z.boolean()]);
const props = z
  .record(z.string().min(1).max(100), scalar)
  .refine((p) => Object.keys(p).length <= COLLECT_LIMITS.props, `No máximo ${COLLECT_LIMITS.props} propriedades.`);

export const pushSubscriptionSchema = z.object({
  endpoint: z.url().max(1024),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: z.string().min(1).max(200), auth: z.string().min(1).max(100) }),
});
export type PushSubscriptionJson = z.infer<typeof pushSubscriptionSchema>;

export const collectEventSchema = z.discriminatedUnion('t', [
  z.object({
    t: z.literal('pv'),
    u: z.url().max(COLLECT_LIMITS.text),
    r: text().optional(),
    ti: text(300).optional(),
    ts,
  }),
  z.object({ t: z.literal('ev'), c: z.string().trim().min(1).max(100), p: props.optional(), ts }),
  z.object({ t: z.literal('id'), p: props, ts }),
  z.object({ t: z.literal('optin'), s: pushSubscriptionSchema, o: text().optional(), ts }),
  z.object({ t: z.literal('optout'), ts }),
  z.object({ t: z.literal('viewed'), d: z.string().min(1).max(64), ts }),
  z.object({ t: z.literal('clicked'), d: z.string().min(1).max(64), ts }),
  // A conversion (tag 1.3.0, `gero('conversion', { value, order_id })`): value in BRL; a repeated order_id counts once.
  z.object({
    t: z.literal('cv'),
    v: z.number().finite().min(0).max(1_000_000_000),
    o: z.string().trim().min(1).max(100).optional(),
    ts,
  }),
  // A GCD item's report from the tag's injector: shown, clicked inside its content, or its selector matched
  // nothing for 10 s on a page where it applies (`u`: that page). With an A/B test (issue #25) `a` is the visitor's
  // arm, and a held-out visitor (control or global control group) is reported once as k 'held', shown nothing.
  z.object({
    t: z.literal('dcm'),
    m: z.uuid(),
    k: z.enum(['viewed', 'clicked', 'missing', 'held']),
    u: text().optional(),
    a: z.string().trim().min(1).max(40).optional(),
    ts,
  }),
]);
export type CollectEvent = z.infer<typeof collectEventSchema>;

/** The batch around the events; events are validated one by one so one bad event never sinks the rest. */
export const collectBatchSchema = z.object({
  // gero_ids are `G-` and hex: anything else names no domain and never reaches the database.
  id: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/),
  vid: z.string().min(1).max(64).optional(),
  v: z.string().max(20).optional(),
  l: z.string().max(35).optional(),
  // The browser's IANA time zone (tag 1.6.0, once per session; issue #27). A name the server does not know is ignored.
  tz: z.string().max(64).optional(),
  e: z.array(z.unknown()),
});
