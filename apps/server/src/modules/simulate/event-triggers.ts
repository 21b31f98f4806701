import type { Db } from '../../db/client.ts';
import type { StoredEvent } from '../../engine/matcher.ts';
import { engineMessages } from '../../engine/messages.ts';
import { qualifiedDeliveries } from '../../engine/qualify.ts';
import type { PersonView, Simulation } from './planned-send.ts';
import * as q from './simulate.queries.ts';

/*
 * What the two replays of a momentum that events start share (event-replay.ts person by person, throttled-replay.ts
 * in time order across persons): which stored events are read (the trigger's categories; for page views only the
 * addresses the matcher starts or cancels on, each then sent as its number), the event a fetched row stands for, and
 * the rows a matched trigger starts for a person, kept as the deliveries table keeps them (dedupe keys, "no new chain
 * while one waits", a skipped row for whom the channel cannot reach).
 */

/** Past this many distinct page addresses in the range the page-view stream is not narrowed by address. */
const URL_PREFILTER_LIMIT = 20_000;

/** The trigger's category names and property (a prefilter of the rows fetched; the matcher still decides). */
function eventTriggerOf(blocks: unknown[]) {
  const trigger = (blocks as { type: string; values?: Record<string, unknown>[] }[]).find((b) => b.type === 'trigger');
  const t = trigger?.values?.[0] ?? {};
  const categories = [t.parentCategory, t.parentCategory2].filter((c): c is string => typeof c === 'string' && !!c);
  return { categories, key: typeof t.key === 'string' && t.key ? t.key : null };
}

/** Which events a replay reads, and for page views sent by number what the matcher answers for each address. */
export interface EventStream {
  filter: Pick<q.PersonEventsInput, 'kind' | 'urls' | 'categories' | 'propKey'>;
  /** By the address's number less one: does it start the momentum? (Empty when addresses come as text.) */
  startsAt: boolean[];
  /** By the address's number less one: does it cancel what waits (an abandon's goal)? */
  cancelsAt: boolean[];
}

/** The events a replay reads; null when none in the range can start the momentum. */
export async function eventStream(
  sim: Simulation,
  input: { db: Db; companyUuid: string; domainUuid: string; from: Date; blocks: unknown[] },
  /** Page addresses the stream must also carry (a journey's page conditions), though they start nothing. */
  alsoPages: ((url: string) => boolean) | null = null,
): Promise<EventStream | null> {
  const { m, to } = sim;
  const { db, companyUuid, domainUuid, from } = input;
  if (m.triggerKind === 'events') {
    const { categories, key } = eventTriggerOf(input.blocks);
    if (categories.length === 0) return null;
    return { filter: { kind: 'event', urls: null, categories, propKey: key }, startsAt: [], cancelsAt: [] };
  }
  let startsAt: boolean[] = [];
  let cancelsAt: boolean[] = [];
  const asEvent = (url: string): StoredEvent => ({
    id: 0,
    domainUuid,
    personUuid: null,
    kind: 'pageview',
    url,
    category: null,
    props: null,
    ts: from,
  });
  const all = await q.distinctPageUrls(db, companyUuid, { domainUuid, from, to, limit: URL_PREFILTER_LIMIT });
  if (all) {
    startsAt = all.map((u) => m.starts(asEvent(u)));
    cancelsAt = all.map((u) => m.cancels(asEvent(u)));
  }
  // The addresses the matcher starts or cancels on (the others change nothing) and those asked for, each then sent as
  // its number.
  if (all && !all.some((_, i) => startsAt[i] || cancelsAt[i])) return null;
  const kept = all ? all.map((_, i) => i).filter((i) => startsAt[i] || cancelsAt[i] || alsoPages?.(all[i]!)) : null;
  if (all && kept) {
    startsAt = kept.map((i) => startsAt[i]!);
    cancelsAt = kept.map((i) => cancelsAt[i]!);
  }
  const urls = kept ? kept.map((i) => all![i]!) : null;
  return { filter: { kind: 'pageview', urls, categories: null, propKey: null }, startsAt, cancelsAt };
}

/** The stored event a fetched row stands for (`t`: its instant in epoch ms; a page by number given its address back). */
export const storedEvent = (
  stream: EventStream,
  domainUuid: string,
  personUuid: string,
  t: number,
  [, id, page, category, props]: q.PersonEvent,
): StoredEvent => ({
  id,
  domainUuid,
  personUuid,
  kind: stream.filter.kind,
  url: typeof page === 'number' ? stream.filter.urls![page - 1]! : (page ?? null),
  category: category ?? null,
  props: props ?? null,
  ts: new Date(t),
});

/** Frees a dedupe key (a delivery that ended unsent, a goal's cancellation), so a later trigger may take it again. */
export function freeKey(keys: string[], key: string) {
  const k = keys.indexOf(key);
  if (k >= 0) keys.splice(k, 1);
}

/**
 * matching.ts for one candidate: qualifiedDeliveries' rows, inserted as insertDeliveries would. `keys`: the dedupe
 * keys the person holds (without the `momentum:person:` prefix, `prefixLength` long), taken here; `unreachable`: the
 * person's reason by reachKey when the matching stage holds them out (a skipped row), else empty. Each row enters the funnel; a skipped one is
 * removed at once (the channel, or the filter told first), each other is handed to `plan` (its key, due time and
 * trigger time, epoch ms), a chain's rows in order.
 */
export function startChain(
  sim: Simulation,
  p: PersonView,
  unreachable: ReadonlyMap<string, string>,
  keys: string[],
  prefixLength: number,
  hasPending: boolean,
  e: StoredEvent,
  plan: (key: string, dueAt: number, triggerAt: number) => void,
) {
  const { m, tally } = sim;
  const skipped = unreachable.size > 0;
  // What qualifiedDeliveries would answer is all kept out: a repeat chain while one waits, the once key (or the
  // skipped row's) taken.
  if (m.repeats.length === 0 ? keys.includes(skipped ? 'skipped' : 'once') : hasPending && !skipped) return;
  const rows = qualifiedDeliveries([{ momentum: m, personUuid: p.uuid, event: e }], unreachable);
  for (const r of rows) {
    const key = r.dedupeKey.slice(prefixLength);
    if (keys.includes(key) || (r.unlessPending && hasPending)) continue;
    // A repeat chain's keys carry the trigger event's id: no later row can take them, so they are not kept.
    if (!r.unlessPending) keys.push(key);
    tally.enter();
    if (r.skipReason) {
      // The engine's skipped row: the channel cannot reach the person (the funnel tells the filter first).
      tally.removed(
        p.passes ? 'channel' : 'filter',
        p.uuid,
        p.who,
        p.passes ? r.skipReason : engineMessages.outOfAudience,
        e.ts,
      );
      continue;
    }
    plan(key, r.dueAt.getTime(), r.triggerAt.getTime());
  }
}
