import { CHANNEL_TYPES } from '../../channels/channel.schema.ts';
import { z } from '../../zod.ts';
import { firstItem, m } from './common.ts';
import { dcmDispatcherValuesSchema } from './dcm-dispatcher.schema.ts';
import { httpUrl, intervalRecurrency, text } from './dispatcher-fields.ts';

const dispatcherVariant = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ filter: z.literal(type), ...shape, intervalRecurrency });
const looseDispatcher = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.looseObject({ filter: z.literal(type), ...shape, intervalRecurrency });

/** Accepts `icon` as another name of `icon_uri` (the spec's field, 2 §3.5). */
const iconAlias = (v: unknown) => {
  if (!v || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  if (o.icon_uri !== undefined || o.icon === undefined) return o;
  const { icon, ...rest } = o;
  return { ...rest, icon_uri: icon };
};

export const DISPATCHER_TYPES = [...CHANNEL_TYPES, 'CELL_DCM'] as const;

const dispatcherValueVariants = z.discriminatedUnion(
  'filter',
  [
    dispatcherVariant('CELL_NOTIFICATION', {
      name: text(m.nameRequired, 200),
      title: z.string({ error: m.titleRequired }).trim().min(1, m.titleRequired).max(49, m.titleTooLong),
      message: z.string({ error: m.messageRequired }).trim().min(1, m.messageRequired).max(126, m.messageTooLong),
      icon_uri: z.string({ error: m.iconRequired }).trim().min(1, m.iconRequired).pipe(httpUrl(m.iconInvalid)),
      redirect_uri: httpUrl(m.redirectInvalid),
      image: z
        .string({ error: m.imageInvalid })
        .trim()
        .optional()
        .pipe(z.union([z.literal(''), httpUrl(m.imageInvalid)]).optional()),
      /** Action buttons (doc 2 §3 `notification_buttons`): the service worker shows them and opens each one's URL. */
      notification_buttons: z
        .array(
          z.object({
            title: z
              .string({ error: m.buttonTitleRequired })
              .trim()
              .min(1, m.buttonTitleRequired)
              .max(30, m.buttonTitleRequired),
            url: httpUrl(m.buttonUrlInvalid),
          }),
        )
        .max(2, m.buttonsTooMany)
        .optional(),
    }),
    dispatcherVariant('ZENVIA', { body: text(m.smsBodyRequired, 1600) }),
    dispatcherVariant('AWS_SES', {
      subject: text(m.emailSubjectRequired, 500),
      body: text(m.emailBodyRequired, 500_000),
    }),
    dispatcherVariant('AKNA', {
      action_id: text(m.aknaFieldRequired, 500),
      message_id: text(m.aknaFieldRequired, 500),
      name_sender: text(m.aknaFieldRequired, 500),
      mail_sender: text(m.aknaFieldRequired, 500),
      subject: text(m.aknaFieldRequired, 500),
      mail_return: z.string().trim().max(500).optional(),
    }),
    looseDispatcher('ONE_SIGNAL', {
      title: text(m.oneSignalFieldRequired, 500),
      url: httpUrl(m.oneSignalFieldRequired),
      message_pt: text(m.oneSignalPtRequired, 2000),
      message_en: text(m.oneSignalEnRequired, 2000),
      web_image: z
        .string({ error: m.oneSignalImageInvalid })
        .trim()
        .optional()
        .pipe(z.union([z.literal(''), httpUrl(m.oneSignalImageInvalid)]).optional()),
    }),
    looseDispatcher('SUPERARE_WEBVIEW', {
      webview_type: text(m.webviewTypeRequired, 100),
      webview_mode: z.string().trim().max(100).optional(),
      webview_props: z.record(z.string(), z.string({ error: m.webviewPropsInvalid })).optional(),
    }),
    looseDispatcher('SUPERARE_NOTIFICATION', {}),
    dcmDispatcherValuesSchema,
  ],
  { error: m.channelRequired },
);

/**
 * One channel's content (the `values` item of a dispatcher block), `icon` read as `icon_uri`: the schema a block, an
 * experiment variant or a journey step reuses.
 */
export const dispatcherValuesSchema = z.preprocess(iconAlias, dispatcherValueVariants);
export type DispatcherValuesInput = z.input<typeof dispatcherValuesSchema>;
export type DispatcherValues = z.output<typeof dispatcherValuesSchema>;

export const dispatcherBlockSchema = z.object(
  {
    type: z.literal('dispatcher', { error: m.blockInvalid }),
    values: z.preprocess(
      firstItem,
      z.array(dispatcherValuesSchema, { error: m.channelRequired }).min(1, m.channelRequired).max(1, m.channelRequired),
    ),
  },
  { error: m.blockInvalid },
);
export type DispatcherBlockInput = z.input<typeof dispatcherBlockSchema>;
export type DispatcherBlock = z.output<typeof dispatcherBlockSchema>;
