import type { AppContext } from '../lib/context.ts';
import type { SecretBox } from '../lib/secret-box.ts';
import * as q from './deliveries.queries.ts';
import { type CompiledMomentum, tryCompileStored } from './matcher.ts';
import { engineMessages } from './messages.ts';

/** Channels whose adapter needs the channel row's credentials. */
export const PROVIDER_CHANNELS = new Set(['ZENVIA', 'AWS_SES', 'AKNA', 'ONE_SIGNAL']);

export interface DomainKey {
  public: string;
  private: string;
  root: string;
}

export interface ProviderChannel {
  uuid: string;
  /** The channel row's properties with its sealed credentials opened. */
  properties: Record<string, unknown>;
  /** Why the provider refused its credentials (then every send fails fast), or null. */
  refused: string | null;
}

/** What the deliveries of one claimed batch are sent with, each read once for the batch. */
export interface BatchContext {
  momentumOf: Map<string, { row: q.DispatchMomentum; compiled: CompiledMomentum }>;
  personOf: Map<string, q.DispatchPerson>;
  /** VAPID keys and root address by domain (kept across batches: they never change). */
  keys: Map<string, DomainKey>;
  /** By `domain|channel type`, provider channels only. */
  channelOf: Map<string, ProviderChannel>;
  /** Frequency caps by domain, for domains that have one. */
  capOf: Map<string, { uuid: string; frequency_cap_day: number | null; frequency_cap_week: number | null }>;
}

const uniq = <T>(list: T[]) => [...new Set(list)];

/** The loading stage of a send pass: momentums (compiled), persons, domain keys, provider channels and caps. */
export function createBatchLoader(ctx: Pick<AppContext, 'db' | 'log'>, box: SecretBox) {
  const { db, log } = ctx;
  const vapid = new Map<string, DomainKey>();

  const domainKeys = async (uuids: string[]) => {
    const missing = uuids.filter((u) => !vapid.has(u));
    if (missing.length) {
      for (const d of await q.domainsByUuid(db, missing)) {
        vapid.set(d.uuid, { public: d.vapid_public, private: box.open(d.vapid_private), root: d.domain_root });
      }
    }
    return vapid;
  };

  return async function loadBatch(claimed: q.ClaimedDelivery[]): Promise<BatchContext> {
    const domains = uniq(claimed.map((c) => c.domain_uuid));
    const [moms, people] = await Promise.all([
      q.momentumsByUuid(db, uniq(claimed.map((c) => c.momentum_uuid))),
      q.personsByUuid(db, uniq(claimed.map((c) => c.person_uuid))),
    ]);
    const keys = await domainKeys(domains);
    const momentumOf = new Map(
      moms.flatMap((m) => {
        const compiled = tryCompileStored(m, log);
        return compiled ? [[m.uuid, { row: m, compiled }] as const] : [];
      }),
    );
    const personOf = new Map(people.map((p) => [p.uuid, p]));
    const providerPairs = uniq(
      claimed.filter((c) => PROVIDER_CHANNELS.has(c.channel_type)).map((c) => `${c.domain_uuid}|${c.channel_type}`),
    ).map((k) => ({ domainUuid: k.split('|')[0]!, channelType: k.split('|')[1]! }));
    const [channelRows, capRows] = await Promise.all([q.channelsFor(db, providerPairs), q.domainCaps(db, domains)]);
    const channelOf = new Map(
      channelRows.map((c) => [
        `${c.domain_uuid}|${c.channel_type}`,
        {
          uuid: c.uuid,
          properties: { ...c.properties, ...(c.secrets ? JSON.parse(box.open(c.secrets)) : {}) } as Record<
            string,
            unknown
          >,
          refused: c.refused_at ? (c.refused_reason ?? engineMessages.credentialsRefused) : null,
        },
      ]),
    );
    const capOf = new Map(capRows.map((c) => [c.uuid, c]));
    return { momentumOf, personOf, keys, channelOf, capOf };
  };
}
