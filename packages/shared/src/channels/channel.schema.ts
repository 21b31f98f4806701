import { z } from 'zod';
import { requiredText } from '../auth/auth.schema.ts';
import { msg } from '../messages.ts';

const m = msg.channel;

export const CHANNEL_TYPES = [
  'CELL_NOTIFICATION',
  'ZENVIA',
  'AWS_SES',
  'AKNA',
  'SUPERARE_WEBVIEW',
  'SUPERARE_NOTIFICATION',
  'ONE_SIGNAL',
] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/** Channels with credentials to change (READINGS A-18); the property-less ones cannot be edited. */
export const EDITABLE_CHANNEL_TYPES = ['ZENVIA', 'AWS_SES', 'AKNA', 'ONE_SIGNAL'] as const satisfies ChannelType[];
export const isChannelEditable = (type: string) => (EDITABLE_CHANNEL_TYPES as readonly string[]).includes(type);

/** What a stored secret looks like in every answer; sent back on update it means "keep the stored one". */
export const SECRET_MASK = '••••••';

/** Properties as the server answers them (spec doc 1 §3): secret ones always carry SECRET_MASK. */
export const CHANNEL_SECRET_PROPERTIES: Record<ChannelType, readonly string[]> = {
  CELL_NOTIFICATION: [],
  ZENVIA: ['token'],
  AWS_SES: ['accessKeyId', 'secretAccessKey'],
  AKNA: ['token'],
  SUPERARE_WEBVIEW: [],
  SUPERARE_NOTIFICATION: [],
  ONE_SIGNAL: ['oneSignalApiId'],
};

const MAX = 500;
const trimmed = (required: string) => requiredText(required).pipe(z.string().max(MAX, m.tooLong));
/** Passwords are kept exactly as typed; only a blank one counts as missing. */
const password = (required: string) =>
  z
    .string({ error: required })
    .refine((v) => v.trim() !== '', required)
    .pipe(z.string().max(MAX, m.tooLong));
/** The Basic-auth form `login:password` (READINGS A-19) cannot carry a ':' in the login. */
const login = (required: string) => trimmed(required).pipe(z.string().refine((v) => !v.includes(':'), m.loginColon));

/** On update a secret may be left empty (or sent back masked): the stored value is kept. */
const keepable = <T extends z.ZodType<string, string>>(schema: T) =>
  z
    .string({ error: m.invalidValue })
    .nullish()
    .transform((v) => (v == null || v.trim() === '' || v === SECRET_MASK ? undefined : v))
    .pipe(schema.optional());

/** `username` and `login` name the same field (Zenvia's form says login, Akna's username). */
const loginAlias = (from: string, to: string) => (v: unknown) => {
  if (!v || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  return o[to] === undefined && o[from] !== undefined ? { ...o, [to]: o[from] } : o;
};

const f = {
  oneSignalAppId: trimmed(m.oneSignalAppIdRequired),
  oneSignalApiId: trimmed(m.oneSignalApiIdRequired),
  zenviaLogin: login(m.zenviaLoginRequired),
  zenviaPassword: password(m.zenviaPasswordRequired),
  zenviaSender: trimmed(m.zenviaSenderRequired),
  sesAccessKeyId: trimmed(m.sesAccessKeyIdRequired),
  sesSecret: trimmed(m.sesSecretRequired),
  sesRegion: trimmed(m.sesRegionRequired).pipe(z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d{1,2}$/, m.sesRegionInvalid)),
  sesSource: trimmed(m.sesSourceRequired),
  aknaUsername: login(m.aknaUsernameRequired),
  aknaPassword: password(m.aknaPasswordRequired),
  aknaClient: trimmed(m.aknaClientRequired),
};
const zenviaAlias = loginAlias('username', 'login');
const aknaAlias = loginAlias('login', 'username');
const empty = () => z.object({});

/** The fields each channel's form sends on create (spec doc 1 §3, §5). */
export const channelFormSchemas = {
  CELL_NOTIFICATION: empty(),
  ZENVIA: z.preprocess(
    zenviaAlias,
    z.object({ login: f.zenviaLogin, password: f.zenviaPassword, sender: f.zenviaSender }),
  ),
  AWS_SES: z.object({
    accessKeyId: f.sesAccessKeyId,
    secretAccessKey: f.sesSecret,
    region: f.sesRegion,
    source: f.sesSource,
  }),
  AKNA: z.preprocess(aknaAlias, z.object({ username: f.aknaUsername, password: f.aknaPassword, client: f.aknaClient })),
  SUPERARE_WEBVIEW: empty(),
  SUPERARE_NOTIFICATION: empty(),
  ONE_SIGNAL: z.object({ oneSignalAppId: f.oneSignalAppId, oneSignalApiId: f.oneSignalApiId }),
} as const;

/** The same fields on edit: secrets may stay empty to keep the stored ones. */
export const channelEditSchemas = {
  ZENVIA: z.preprocess(
    zenviaAlias,
    z.object({ login: keepable(f.zenviaLogin), password: keepable(f.zenviaPassword), sender: f.zenviaSender }),
  ),
  AWS_SES: z.object({
    accessKeyId: keepable(f.sesAccessKeyId),
    secretAccessKey: keepable(f.sesSecret),
    region: f.sesRegion,
    source: f.sesSource,
  }),
  AKNA: z.preprocess(
    aknaAlias,
    z.object({ username: keepable(f.aknaUsername), password: keepable(f.aknaPassword), client: f.aknaClient }),
  ),
  ONE_SIGNAL: z.object({ oneSignalAppId: f.oneSignalAppId, oneSignalApiId: keepable(f.oneSignalApiId) }),
} as const;

const domainUuid = z.uuid({ error: m.domainRequired });
const variant = <T extends ChannelType, P extends z.ZodType>(type: T, properties: P) =>
  z.object({
    domain_uuid: domainUuid,
    channel_type: z.literal(type),
    properties: properties.prefault({} as z.input<P>),
  });

export const createChannelSchema = z.object(
  {
    channel: z.discriminatedUnion(
      'channel_type',
      [
        variant('CELL_NOTIFICATION', channelFormSchemas.CELL_NOTIFICATION),
        variant('ZENVIA', channelFormSchemas.ZENVIA),
        variant('AWS_SES', channelFormSchemas.AWS_SES),
        variant('AKNA', channelFormSchemas.AKNA),
        variant('SUPERARE_WEBVIEW', channelFormSchemas.SUPERARE_WEBVIEW),
        variant('SUPERARE_NOTIFICATION', channelFormSchemas.SUPERARE_NOTIFICATION),
        variant('ONE_SIGNAL', channelFormSchemas.ONE_SIGNAL),
      ],
      { error: m.typeInvalid },
    ),
  },
  { error: m.typeInvalid },
);
export type CreateChannelInput = z.input<typeof createChannelSchema>;
export type CreateChannel = z.output<typeof createChannelSchema>['channel'];

const uuid = z.uuid({ error: m.notFound });
const editVariant = <T extends ChannelType, P extends z.ZodType>(type: T, properties: P) =>
  variant(type, properties).extend({ uuid });

/** PUT /channel/update; the property-less types parse here and are refused by the service (READINGS A-18). */
export const updateChannelSchema = z.object(
  {
    channel: z.discriminatedUnion(
      'channel_type',
      [
        editVariant('ZENVIA', channelEditSchemas.ZENVIA),
        editVariant('AWS_SES', channelEditSchemas.AWS_SES),
        editVariant('AKNA', channelEditSchemas.AKNA),
        editVariant('ONE_SIGNAL', channelEditSchemas.ONE_SIGNAL),
        editVariant('CELL_NOTIFICATION', empty()),
        editVariant('SUPERARE_WEBVIEW', empty()),
        editVariant('SUPERARE_NOTIFICATION', empty()),
      ],
      { error: m.typeInvalid },
    ),
  },
  { error: m.typeInvalid },
);
export type UpdateChannelInput = z.input<typeof updateChannelSchema>;
export type UpdateChannel = z.output<typeof updateChannelSchema>['channel'];

/** A channel as GET /domain/channels/:domain lists it; secrets are SECRET_MASK, never their value. */
export interface ChannelItem {
  uuid: string;
  channel_type: ChannelType;
  domain_uuid: string;
  properties: Record<string, string>;
  updated_at: string;
  active: boolean;
  /** The provider refused the credentials when the engine last sent ('Credenciais recusadas pelo provedor'). */
  credentials_refused?: { at: string; reason: string };
}

/** What creating SUPERARE_NOTIFICATION answers in `data` (spec doc 1 §3, §7). */
export interface SuperareNotificationData {
  uuid: string;
  domain: string;
  welcome_title: string;
  appToken: string;
  notificationsEnabled: boolean;
  client_id: string;
  chrome_app_id: string;
}
