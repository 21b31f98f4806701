import { randomUUID } from 'node:crypto';
import {
  CHANNEL_SECRET_PROPERTIES,
  type ChannelItem,
  type ChannelType,
  type CreateChannel,
  isChannelEditable,
  msg,
  SECRET_MASK,
  type SuperareNotificationData,
  type UpdateChannel,
} from '@impeto/shared';
import { z } from 'zod';
import type { domains } from '../../db/schema.ts';
import type { AppContext } from '../../lib/context.ts';
import { AppError, isUniqueViolation, notFound } from '../../lib/errors.ts';
import { createSecretBox, type SecretBox } from '../../lib/secret-box.ts';
import { requireCompanyDomain } from '../../lib/tenancy.ts';
import * as q from './channels.queries.ts';

type Props = Record<string, string>;
interface Split {
  properties: Props;
  secrets: Props;
}

const boxes = new WeakMap<AppContext, SecretBox>();
const boxOf = (ctx: AppContext) => {
  let box = boxes.get(ctx);
  if (!box) {
    box = createSecretBox(ctx.config.secretKey);
    boxes.set(ctx, box);
  }
  return box;
};

const seal = (ctx: AppContext, secrets: Props) =>
  Object.keys(secrets).length > 0 ? boxOf(ctx).seal(JSON.stringify(secrets)) : null;
const open = (ctx: AppContext, sealed: string | null): Props => (sealed ? JSON.parse(boxOf(ctx).open(sealed)) : {});

/** The HTTP Basic form of a login and password (READINGS A-19). */
const basicToken = (login: string, password: string) => Buffer.from(`${login}:${password}`, 'utf8').toString('base64');
const fromBasicToken = (token: string | undefined) => {
  const plain = Buffer.from(token ?? '', 'base64').toString('utf8');
  const at = plain.indexOf(':');
  return at < 0 ? { login: '', password: '' } : { login: plain.slice(0, at), password: plain.slice(at + 1) };
};

const isUuid = (value: string) => z.uuid().safeParse(value).success;
const channelNotFound = () => notFound(msg.channel.notFound, 'CHANNEL_NOT_FOUND');

/** What a browser may see: the plain properties, and SECRET_MASK where a secret is stored. */
export const toChannelItem = (row: q.ChannelRow): ChannelItem => {
  const secretKeys = CHANNEL_SECRET_PROPERTIES[row.channelType as ChannelType] ?? [];
  const masked = row.secrets ? Object.fromEntries(secretKeys.map((k) => [k, SECRET_MASK])) : {};
  return {
    uuid: row.uuid,
    channel_type: row.channelType as ChannelType,
    domain_uuid: row.domainUuid,
    properties: { ...row.properties, ...masked },
    updated_at: row.updatedAt.toISOString(),
    active: row.active,
    ...(row.refusedAt
      ? { credentials_refused: { at: row.refusedAt.toISOString(), reason: row.refusedReason ?? '' } }
      : {}),
  };
};

export async function listChannels(ctx: AppContext, companyUuid: string, domainUuid: string) {
  if (!isUuid(domainUuid)) throw notFound(msg.common.notFound, 'DOMAIN_NOT_FOUND');
  await requireCompanyDomain(ctx, companyUuid, domainUuid);
  return (await q.listDomainChannels(ctx.db, companyUuid, domainUuid)).map(toChannelItem);
}

function splitNew(input: CreateChannel): Split {
  switch (input.channel_type) {
    case 'ONE_SIGNAL':
      return {
        properties: { oneSignalAppId: input.properties.oneSignalAppId },
        secrets: { oneSignalApiId: input.properties.oneSignalApiId },
      };
    case 'ZENVIA':
      return {
        properties: { sender: input.properties.sender },
        secrets: { token: basicToken(input.properties.login, input.properties.password) },
      };
    case 'AWS_SES':
      return {
        properties: { region: input.properties.region, source: input.properties.source },
        secrets: { accessKeyId: input.properties.accessKeyId, secretAccessKey: input.properties.secretAccessKey },
      };
    case 'AKNA':
      return {
        properties: { client: input.properties.client },
        secrets: { token: basicToken(input.properties.username, input.properties.password) },
      };
    case 'SUPERARE_NOTIFICATION':
      return {
        properties: { welcome_title: msg.channel.welcomeTitle, appToken: randomUUID(), chrome_app_id: '' },
        secrets: {},
      };
    default:
      return { properties: {}, secrets: {} };
  }
}

/** An edit keeps every secret left empty; a login or a password alone is recombined with the stored other half. */
function splitEdit(input: UpdateChannel, stored: Props): Split {
  switch (input.channel_type) {
    case 'ONE_SIGNAL':
      return {
        properties: { oneSignalAppId: input.properties.oneSignalAppId },
        secrets: { oneSignalApiId: input.properties.oneSignalApiId ?? stored.oneSignalApiId ?? '' },
      };
    case 'ZENVIA':
    case 'AKNA': {
      const p = input.properties;
      const [typedLogin, properties]: [string | undefined, Props] =
        'sender' in p ? [p.login, { sender: p.sender }] : [p.username, { client: p.client }];
      const old = fromBasicToken(stored.token);
      const token =
        typedLogin === undefined && p.password === undefined
          ? (stored.token ?? '')
          : basicToken(typedLogin ?? old.login, p.password ?? old.password);
      return { properties, secrets: { token } };
    }
    case 'AWS_SES':
      return {
        properties: { region: input.properties.region, source: input.properties.source },
        secrets: {
          accessKeyId: input.properties.accessKeyId ?? stored.accessKeyId ?? '',
          secretAccessKey: input.properties.secretAccessKey ?? stored.secretAccessKey ?? '',
        },
      };
    default:
      throw new AppError('CHANNEL_NOT_EDITABLE', 422, msg.channel.notEditable);
  }
}

const superareData = (
  row: q.ChannelRow,
  domain: typeof domains.$inferSelect,
  companyUuid: string,
): SuperareNotificationData => ({
  uuid: row.uuid,
  domain: domain.domain,
  welcome_title: row.properties.welcome_title ?? msg.channel.welcomeTitle,
  appToken: row.properties.appToken ?? '',
  notificationsEnabled: row.active,
  client_id: companyUuid,
  chrome_app_id: row.properties.chrome_app_id ?? '',
});

const duplicate = () => new AppError('CHANNEL_ALREADY_INTEGRATED', 409, msg.channel.duplicate);

/** One channel per type per domain (spec doc 1 §4: an active channel cannot be added again). */
export async function createChannel(ctx: AppContext, companyUuid: string, input: CreateChannel) {
  const domain = await requireCompanyDomain(ctx, companyUuid, input.domain_uuid);
  if (await q.findDomainChannelByType(ctx.db, companyUuid, domain.uuid, input.channel_type)) throw duplicate();
  const { properties, secrets } = splitNew(input);
  const now = ctx.clock.now();
  let row: q.ChannelRow;
  try {
    row = await q.insertChannel(ctx.db, {
      uuid: randomUUID(),
      domainUuid: domain.uuid,
      channelType: input.channel_type,
      properties,
      secrets: seal(ctx, secrets),
      active: true,
      createdAt: now,
      updatedAt: now,
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicate();
    throw err;
  }
  return row.channelType === 'SUPERARE_NOTIFICATION' ? superareData(row, domain, companyUuid) : toChannelItem(row);
}

export async function updateChannel(ctx: AppContext, companyUuid: string, input: UpdateChannel) {
  const row = await q.findCompanyChannel(ctx.db, companyUuid, input.uuid);
  if (!row || row.domainUuid !== input.domain_uuid) throw channelNotFound();
  if (!isChannelEditable(row.channelType)) throw new AppError('CHANNEL_NOT_EDITABLE', 422, msg.channel.notEditable);
  if (row.channelType !== input.channel_type) throw new AppError('CHANNEL_TYPE_CHANGED', 409, msg.channel.typeChanged);
  const { properties, secrets } = splitEdit(input, open(ctx, row.secrets));
  const updated = await q.updateChannel(ctx.db, companyUuid, row.uuid, {
    properties,
    secrets: seal(ctx, secrets),
    updatedAt: ctx.clock.now(),
    // New credentials: the engine tries them again.
    refusedAt: null,
    refusedReason: null,
  });
  if (!updated) throw channelNotFound();
  return toChannelItem(updated);
}

/**
 * The delivery engine's view of a channel: plain and decrypted properties together (ZENVIA/AKNA `token`,
 * AWS_SES keys, OneSignal `oneSignalApiId`), or undefined when the domain has no active channel of that type.
 * Never send this to a browser.
 */
export async function readChannelCredentials(ctx: AppContext, domainUuid: string, channelType: ChannelType) {
  const row = await q.findActiveChannel(ctx.db, domainUuid, channelType);
  if (!row) return undefined;
  return { uuid: row.uuid, channelType, properties: { ...row.properties, ...open(ctx, row.secrets) } };
}
