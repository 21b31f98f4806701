import { createHash, randomUUID } from 'node:crypto';
import type { CollectEvent } from '@impeto/shared';
import { sql } from 'drizzle-orm';
import { type Db, dbErrorReason, isTransientDbError, queryRows } from '../../db/client.ts';
import type { StoredEvent } from '../../engine/matcher.ts';
import type { AppContext } from '../../lib/context.ts';
import type { GeoInfo } from '../../lib/geo.ts';
import type { DeviceInfo } from '../../lib/user-agent.ts';
import { visitorHash } from '../../lib/visitor-hash.ts';
import type { Spool, SpoolSegment } from './spool.ts';

/** What one accepted request told us about its sender (raw IP already turned into geo), and its events. */
export interface IncomingRequest {
  domainUuid: string;
  /** Absent on the service worker's reports (viewed, clicked, a changed subscription). */
  visitorId?: string;
  device: DeviceInfo;
  geo: GeoInfo;
  language?: string;
  receivedAt: Date;
  events: CollectEvent[];
}

/** One accepted event with its request's sender. */
export interface IncomingEvent extends Omit<IncomingRequest, 'events'> {
  event: CollectEvent;
}

const eventsOf = ({ events, ...sender }: IncomingRequest): IncomingEvent[] =>
  events.map((event) => ({ ...sender, event }));

/** Requests written together in one transaction; with a spool, the segment that holds them is their identity. */
interface Batch {
  requests: IncomingRequest[];
  events: number;
  segment?: SpoolSegment;
}

/** A uuid derived from a text (the marks of a segment being stored request by request). */
const uuidFrom = (text: string) => {
  const h = createHash('sha256').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};
const splitMark = (segment: SpoolSegment) => uuidFrom(`${segment.id}:split`);
const requestMark = (segment: SpoolSegment, index: number) => uuidFrom(`${segment.id}:${index}`);

const FLUSH_EVENTS = 5000;
/** Events held in memory waiting for the database; past it requests go to the spool only (or 503 without one). */
export const MAX_QUEUED_EVENTS = 50_000;
/** Spool bytes kept on disk only (memory full); past it the collector answers 503. */
export const MAX_DEFERRED_BYTES = 1024 * 1024 * 1024;
const FLUSH_MS = 50;
const ROWS_PER_STATEMENT = 1000;
const EVENTS_PER_STATEMENT = 5000;
const MAX_VISITED = 100;

const chunk = <T>(list: T[], size: number) => {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
};

interface EventRecord {
  domain_uuid: string;
  person_uuid: string | null;
  kind: string;
  url: string | null;
  category: string | null;
  props: unknown;
  device: string;
  ts: string;
}

interface EventRow {
  id: string | number;
  domain_uuid: string;
  person_uuid: string | null;
  kind: string;
  url: string | null;
  category: string | null;
  props: Record<string, unknown> | null;
  ts: Date | string;
}

const toStoredEvent = (r: EventRow): StoredEvent => ({
  id: Number(r.id),
  domainUuid: r.domain_uuid,
  personUuid: r.person_uuid,
  kind: r.kind,
  url: r.url,
  category: r.category,
  props: r.props,
  ts: new Date(r.ts),
});

/** Appends events with one JSON parameter (jsonb_to_recordset): far cheaper than a bound value per column. */
const insertEvents = async (db: Db, records: EventRecord[], stored: StoredEvent[]) => {
  const rows = await queryRows<EventRow>(
    db,
    sql`
    INSERT INTO events (domain_uuid, person_uuid, kind, url, category, props, device, ts)
    SELECT r.domain_uuid, r.person_uuid, r.kind, r.url, r.category, r.props, r.device, r.ts
    FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb) AS r(
      domain_uuid uuid, person_uuid uuid, kind text, url text, category text, props jsonb, device text, ts timestamptz)
    RETURNING id, domain_uuid, person_uuid, kind, url, category, props, ts`,
  );
  for (const r of rows) stored.push(toStoredEvent(r));
};

const KIND: Record<CollectEvent['t'], string> = {
  pv: 'pageview',
  ev: 'event',
  id: 'identify',
  optin: 'optin',
  optout: 'optout',
  viewed: 'viewed',
  clicked: 'clicked',
  cv: 'conversion',
  dcm: 'dcm',
};

/** The person attributes one request tells (its sender's device, place and language); the latest request's win. */
export function requestAttributes(sender: Pick<IncomingRequest, 'device' | 'geo' | 'language'>) {
  const a: Record<string, unknown> = {
    'navigator.mobile': sender.device.mobile,
    'client.device.name': sender.device.device,
  };
  if (sender.device.browser) a['navigator.browser'] = sender.device.browser;
  if (sender.device.version) a['navigator.version'] = sender.device.version;
  if (sender.device.os) a['client.device.os'] = sender.device.os;
  if (sender.language) a['navigator.language'] = sender.language;
  if (sender.geo.country) a['client.location.country'] = sender.geo.country;
  if (sender.geo.region) a['client.location.region'] = sender.geo.region;
  if (sender.geo.city) a['client.location.city'] = sender.geo.city;
  if (sender.geo.asnOrganization) a['asn.autonomous_system_organization'] = sender.geo.asnOrganization;
  return a;
}

const referrerOrigin = (r: string | undefined, own: string) => {
  if (!r) return 'direct';
  try {
    const host = new URL(r).hostname;
    return host === own ? 'direct' : host;
  } catch {
    return 'direct';
  }
};

/**
 * Accept fast, process later (STYLE.md rule 5): the collector answers 202 and hands events here; they are
 * written in batches off the request path: persons upserted key by key, events appended, the event
 * catalogue and the daily rollups upserted.
 */
export function createIngestor(
  ctx: AppContext,
  options: {
    timeZone?: string;
    /** Called with each batch's events once its transaction committed (the engine matches them). */
    onStored?: (events: StoredEvent[]) => Promise<void>;
    /** Where accepted requests are written before the 202 (crash safety); none: memory only. */
    spool?: Spool;
    /** Events held in memory (default MAX_QUEUED_EVENTS). */
    maxQueued?: number;
    /** Bytes of requests kept on disk only when memory is full (default MAX_DEFERRED_BYTES; needs a spool). */
    maxDeferredBytes?: number;
  } = {},
) {
  const spool = options.spool;
  const maxQueued = options.maxQueued ?? MAX_QUEUED_EVENTS;
  const maxDeferredBytes = options.maxDeferredBytes ?? MAX_DEFERRED_BYTES;
  const dayFormat = new Intl.DateTimeFormat('en-CA', { timeZone: options.timeZone ?? 'America/Sao_Paulo' });
  // Formatting is costly and a batch spans milliseconds: remember the last minute's day (zone offsets are whole minutes).
  let lastMinute = Number.NaN;
  let lastDay = '';
  /** The day of `at` in the company's time zone, as YYYY-MM-DD (rollups are per local day). */
  const dayOf = (at: Date) => {
    const minute = Math.floor(at.getTime() / 60_000);
    if (minute !== lastMinute) {
      lastMinute = minute;
      lastDay = dayFormat.format(at);
    }
    return lastDay;
  };
  // PostgreSQL takes a few batches at once (each in its own transaction); PGlite is one connection.
  const maxInFlight = ctx.database.kind === 'postgres' ? 3 : 1;
  /** Requests accepted since the last flush (one batch, one spool segment). */
  let queue: IncomingRequest[] = [];
  let queueEvents = 0;
  let queued = 0;
  let timer: NodeJS.Timeout | undefined;
  const inFlight = new Set<Promise<unknown>>();
  const waiting: Batch[] = [];
  /**
   * Memory full: requests are appended to the spool's overflow segment only; each sealed overflow segment is one
   * batch, read back from disk when a writer is free and nothing in memory waits.
   */
  const deferred: { segment: SpoolSegment; bytes: number }[] = [];
  let overflowBytes = 0;
  let overflowEvents = 0;
  let deferredBytes = 0;
  let stored = 0;
  let quarantined = 0;
  /** Marks of batches stored and whose file is gone: deleted with the next batch. */
  let forget: string[] = [];
  /** Set by `close`: a database that stays away no longer holds the process; its batches wait in the spool. */
  let closing = false;
  let outageSince: number | undefined;
  let outages = 0;
  let lastOutageSeconds = 0;

  const schedule = () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      flush();
    }, FLUSH_MS);
  };

  /**
   * A spool segment's requests (a line cut by a crash is skipped and logged); undefined when the file cannot be
   * read: it stays where it is, for the next start.
   */
  const requestsInSegment = (segment: SpoolSegment) => {
    let read: ReturnType<Spool['read']>;
    try {
      read = spool!.read(segment);
    } catch (err) {
      ctx.log.error({ err, file: segment.file }, 'coletor: lote do spool ilegível; fica para a próxima partida');
      return undefined;
    }
    if (read.broken)
      ctx.log.warn({ file: segment.file, broken: read.broken }, 'coletor: linhas cortadas no spool ignoradas');
    return (read.lines as IncomingRequest[]).map((r) => ({ ...r, receivedAt: new Date(r.receivedAt) }));
  };
  const eventCount = (requests: IncomingRequest[]) => requests.reduce((n, r) => n + r.events.length, 0);

  /** Moves the overflow segment, when it has lines, to the batches waiting on disk. */
  const sealOverflow = () => {
    const segment = spool?.sealDeferred();
    if (segment) deferred.push({ segment, bytes: overflowBytes });
    overflowBytes = 0;
    overflowEvents = 0;
  };

  /** Reads the oldest batch kept on disk into memory (its segment stays its identity). */
  const loadDeferred = () => {
    const { segment, bytes } = deferred.shift()!;
    deferredBytes -= bytes;
    const requests = requestsInSegment(segment);
    if (!requests) return;
    const events = eventCount(requests);
    queued += events;
    waiting.push({ requests, events, segment });
  };

  const pump = () => {
    while (inFlight.size < maxInFlight && (waiting.length || deferred.length)) {
      if (!waiting.length) {
        loadDeferred();
        continue;
      }
      const batch = waiting.shift()!;
      const job = storeBatch(batch)
        .catch((err) => ctx.log.error({ err }, 'coletor: falha inesperada ao gravar lote'))
        .finally(() => {
          queued -= batch.events;
          inFlight.delete(job);
          pump();
        });
      inFlight.add(job);
    }
  };

  const flush = () => {
    if (timer) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (queue.length) {
      waiting.push({ requests: queue, events: queueEvents, segment: spool?.seal() });
      queue = [];
      queueEvents = 0;
    }
    if (overflowEvents) sealOverflow();
    pump();
  };

  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  /** True when the database answers a trivial query: a failure was then about the data, not the connection. */
  const databaseAnswers = () =>
    ctx.db.execute(sql`SELECT 1`).then(
      () => true,
      () => false,
    );

  /**
   * Runs `work` in one transaction until the database gives an answer. A database that does not answer (restarting,
   * unreachable) is waited for without limit, with a backoff capped at 5 s: the spool holds what arrives meanwhile.
   * A transient refusal (deadlock, too many connections) is tried 5 times. Anything else the database refused comes
   * back as `refused`. While closing, an absent database is given up after 3 tries (`away`).
   */
  const transact = async <T>(
    work: (db: Db) => Promise<T>,
  ): Promise<{ ok: true; value: T } | { ok: false; refused: unknown } | { ok: false; away: true }> => {
    let answered = 0;
    for (let attempt = 1; ; attempt++) {
      try {
        const value = await ctx.db.transaction((tx) => work(tx as unknown as Db));
        if (outageSince !== undefined) {
          lastOutageSeconds = (Date.now() - outageSince) / 1000;
          outageSince = undefined;
          ctx.log.warn({ seconds: lastOutageSeconds }, 'coletor: banco de volta; gravando o que esperou');
        }
        return { ok: true, value };
      } catch (err) {
        const away = !(await databaseAnswers());
        if (!away && (!isTransientDbError(err) || ++answered >= 5)) return { ok: false, refused: err };
        if (away && outageSince === undefined) {
          outageSince = Date.now();
          outages++;
          ctx.log.warn(
            { reason: dbErrorReason(err) },
            'coletor: banco indisponível; os eventos aceitos esperam no spool e são gravados quando ele voltar',
          );
        }
        if (closing && attempt >= 3) return { ok: false, away: true };
        await sleep(Math.min(5000, 100 * 2 ** Math.min(attempt, 6)) * (0.5 + Math.random() / 2));
      }
    }
  };

  /**
   * Marks the segment's batch as stored, in the batch's own transaction, so a replay never stores a batch twice:
   * 'stored' when it already was (a process died after the commit and before removing the file), 'split' when a
   * previous life was storing it request by request. The marks of segments already removed go in the same
   * statement; the table only ever holds the batches in flight.
   */
  const claimSegment = async (db: Db, segment: SpoolSegment, gone: string[]) => {
    const rows = await queryRows<{ id: string }>(
      db,
      sql`
      WITH gone AS (
        DELETE FROM ingest_batches WHERE id IN (
          SELECT value::uuid FROM jsonb_array_elements_text(${JSON.stringify(gone)}::jsonb)))
      INSERT INTO ingest_batches (id)
      SELECT ${segment.id}::uuid
      WHERE NOT EXISTS (SELECT 1 FROM ingest_batches WHERE id = ${splitMark(segment)}::uuid)
      ON CONFLICT DO NOTHING RETURNING id`,
    );
    if (rows.length > 0) return 'fresh' as const;
    const split = await queryRows(db, sql`SELECT 1 AS one FROM ingest_batches WHERE id = ${splitMark(segment)}::uuid`);
    return split.length > 0 ? ('split' as const) : ('stored' as const);
  };

  /** Marks requests of a segment as stored, in their transaction; returns those not stored before. */
  const claimRequests = async (db: Db, segment: SpoolSegment, indices: number[]) => {
    const byMark = new Map(indices.map((i) => [requestMark(segment, i), i]));
    const rows = await queryRows<{ id: string }>(
      db,
      sql`
      INSERT INTO ingest_batches (id)
      SELECT value::uuid FROM jsonb_array_elements_text(${JSON.stringify([...byMark.keys()])}::jsonb)
      ON CONFLICT DO NOTHING RETURNING id`,
    );
    return rows.map((r) => byMark.get(r.id)!).sort((a, b) => a - b);
  };

  /** Matching a batch stored in a previous life again: best effort, like matching itself. */
  const storedAgain = (events: IncomingEvent[]) =>
    options.onStored && events.length
      ? storedEventsOf(events).catch((err) => {
          ctx.log.error({ reason: dbErrorReason(err) }, 'coletor: eventos já gravados não casados de novo');
          return [] as StoredEvent[];
        })
      : Promise.resolve([] as StoredEvent[]);

  /**
   * Stores a batch in one transaction; returns the events stored now (0: already stored before, or kept in the
   * spool because the process stops while the database is away). When the database refuses the batch, whatever
   * the cause (a value it cannot store, a bug), the batch is split until the refused request is alone: that request
   * is quarantined and every other one is stored.
   */
  const storeBatch = async ({ requests, events: count, segment }: Batch): Promise<number> => {
    const events = requests.flatMap(eventsOf);
    const gone = forget;
    forget = [];
    const whole = await transact(async (db) => {
      const state = segment ? await claimSegment(db, segment, gone) : ('fresh' as const);
      const storedNow: StoredEvent[] = [];
      if (state === 'fresh') await write(db, events, storedNow);
      return { state, storedNow };
    });
    if (!whole.ok) forget.push(...gone);

    let fresh = 0;
    let matched: StoredEvent[];
    const marks = segment ? [segment.id] : [];
    if (whole.ok && whole.value.state === 'fresh') {
      fresh = events.length;
      matched = whole.value.storedNow;
    } else if (whole.ok && whole.value.state === 'stored') {
      // A replayed batch stored before the crash may not have been matched yet: match its stored events again
      // (matching is idempotent: deliveries carry a dedupe key). The file goes only after matching.
      matched = await storedAgain(events);
    } else {
      const split =
        'away' in whole ? undefined : await storeSplit(requests, segment, whole.ok ? undefined : whole.refused);
      if (!split) {
        ctx.log.error(
          { events: count, file: segment?.file },
          segment
            ? 'coletor: banco indisponível ao parar; lote mantido no spool para a próxima partida'
            : 'coletor: banco indisponível ao parar; lote descartado (spool desligado)',
        );
        return 0;
      }
      fresh = split.fresh;
      matched = split.matched;
      marks.push(...split.marks);
    }
    stored += fresh;
    if (options.onStored && matched.length) {
      await options
        .onStored(matched)
        .catch((err) => ctx.log.error({ err, events: matched.length }, 'falha ao casar eventos com os momentums'));
    }
    if (segment) {
      await spool!.done(segment).then(
        () => forget.push(...marks),
        (err) => ctx.log.error({ err, file: segment.file }, 'coletor: lote gravado, arquivo do spool não removido'),
      );
    }
    return fresh;
  };

  /**
   * Stores a refused batch by halves, each in its own transaction, down to the single request the database refuses
   * (tried twice, in case the first refusal was a connection lost mid-way), which is quarantined. On a segment, each
   * request is marked in the transaction that stores it, after a mark saying the segment is being split: a process
   * that dies half-way is followed by one that stores only the requests still missing. Undefined: the process stops
   * while the database is away (the segment stays for the next start).
   */
  const storeSplit = async (requests: IncomingRequest[], segment: SpoolSegment | undefined, cause?: unknown) => {
    if (cause !== undefined) {
      ctx.log.warn(
        { reason: dbErrorReason(cause), requests: requests.length, file: segment?.file },
        'coletor: o banco recusou um lote; dividindo-o para isolar a requisição recusada',
      );
    }
    const marks: string[] = [];
    if (segment) {
      const split = splitMark(segment);
      const marked = await transact((db) =>
        db.execute(sql`INSERT INTO ingest_batches (id) VALUES (${split}::uuid) ON CONFLICT DO NOTHING`),
      );
      if (!marked.ok) return undefined;
      marks.push(split);
    }
    let fresh = 0;
    const matched: StoredEvent[] = [];
    const storeRange = async (lo: number, hi: number, tries = 1): Promise<boolean> => {
      const indices = Array.from({ length: hi - lo }, (_, i) => lo + i);
      const result = await transact(async (db) => {
        const mine = segment ? await claimRequests(db, segment, indices) : indices;
        const events = mine.flatMap((i) => eventsOf(requests[i]!));
        const storedNow: StoredEvent[] = [];
        await write(db, events, storedNow);
        return { mine, storedNow, count: events.length };
      });
      if (result.ok) {
        fresh += result.value.count;
        matched.push(...result.value.storedNow);
        const mine = new Set(result.value.mine);
        matched.push(
          ...(await storedAgain(indices.filter((i) => !mine.has(i)).flatMap((i) => eventsOf(requests[i]!)))),
        );
        return true;
      }
      if ('away' in result) return false;
      if (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        return (await storeRange(lo, mid)) && (await storeRange(mid, hi));
      }
      if (tries < 2) return storeRange(lo, hi, tries + 1);
      quarantine(requests[lo]!, segment ? `${segment.id}-${lo}` : `${randomUUID()}-${lo}`, result.refused);
      return true;
    };
    const done =
      cause !== undefined && requests.length > 1
        ? (await storeRange(0, requests.length >> 1)) && (await storeRange(requests.length >> 1, requests.length))
        : await storeRange(0, requests.length, cause !== undefined ? 2 : 1);
    if (!done) return undefined;
    if (segment) marks.push(...requests.map((_, i) => requestMark(segment, i)));
    return { fresh, matched, marks };
  };

  /** Keeps a request the database refused out of the way (spool/quarantine, with the reason); nothing replays it. */
  const quarantine = (request: IncomingRequest, name: string, err: unknown) => {
    quarantined += request.events.length;
    const reason = dbErrorReason(err);
    let file: string | undefined;
    if (spool) {
      try {
        file = spool.quarantine(name, { reason, quarantinedAt: new Date().toISOString(), request });
      } catch (writeErr) {
        ctx.log.error({ err: writeErr }, 'coletor: falha ao gravar a quarentena');
      }
    }
    ctx.log.error(
      { reason, file, domainUuid: request.domainUuid, events: request.events.length },
      'coletor: requisição recusada pelo banco posta em quarentena; as demais do lote foram gravadas',
    );
  };

  /**
   * The events a batch stored, found again by their request: same domain, same reception instant, same visitor
   * (service-worker reports have none). Used only when a replayed segment was already stored.
   */
  const storedEventsOf = async (batch: IncomingEvent[]) => {
    const keys = new Map<string, { d: string; v: string | null; ts: string }>();
    for (const item of batch) {
      const ts = item.receivedAt.toISOString();
      keys.set(`${item.domainUuid}|${item.visitorId ?? ''}|${ts}`, {
        d: item.domainUuid,
        v: item.visitorId ?? null,
        ts,
      });
    }
    const rows = await queryRows<EventRow>(
      ctx.db,
      sql`
      SELECT DISTINCT ON (e.id) e.id, e.domain_uuid, e.person_uuid, e.kind, e.url, e.category, e.props, e.ts
      FROM jsonb_to_recordset(${JSON.stringify([...keys.values()])}::jsonb) AS r(d uuid, v text, ts timestamptz)
      JOIN events e ON e.domain_uuid = r.d AND e.ts = r.ts
      LEFT JOIN persons p ON p.uuid = e.person_uuid
      WHERE p.visitor_id = r.v OR (r.v IS NULL AND e.kind IN ('viewed', 'clicked'))
      ORDER BY e.id`,
    );
    return rows.map(toStoredEvent);
  };

  const write = async (db: Db, all: IncomingEvent[], stored: StoredEvent[]) => {
    const batch = await withoutErased(
      db,
      all.filter((item): item is IncomingEvent & { visitorId: string } => item.visitorId !== undefined),
    );
    await recordWorkerReports(
      db,
      all.filter((item) => item.visitorId === undefined),
      stored,
    );
    if (batch.length === 0) return;
    // One person row per (domain, visitor) in this batch, with every attribute the batch tells us.
    const people = new Map<
      string,
      {
        domainUuid: string;
        visitorId: string;
        attrs: Record<string, unknown>;
        email?: string;
        phone?: string;
        name?: string;
        first: Date;
        last: Date;
        visited: string[];
      }
    >();
    for (const item of batch) {
      const key = `${item.domainUuid}|${item.visitorId}`;
      let p = people.get(key);
      if (!p) {
        const a: Record<string, unknown> = { createdAt: item.receivedAt.toISOString(), ...requestAttributes(item) };
        p = {
          domainUuid: item.domainUuid,
          visitorId: item.visitorId,
          attrs: a,
          first: item.receivedAt,
          last: item.receivedAt,
          visited: [],
        };
        people.set(key, p);
      }
      if (item.receivedAt > p.last) p.last = item.receivedAt;
      const e = item.event;
      if (e.t === 'pv') {
        if (!p.visited.includes(e.u) && p.visited.length < MAX_VISITED) p.visited.push(e.u);
        if (!('origin' in p.attrs)) p.attrs.origin = referrerOrigin(e.r, new URL(e.u).hostname);
      } else if (e.t === 'id') {
        for (const [k, v] of Object.entries(e.p)) {
          if (k === 'email' && typeof v === 'string') p.email = v.trim().toLowerCase();
          else if (k === 'phone') p.phone = String(v).replace(/\D/g, '');
          else if (k === 'name' && typeof v === 'string') p.name = v.trim();
          else p.attrs[`identify.${k}`] = v;
        }
      }
    }

    const personUuid = new Map<string, string>();
    const ordered = [...people.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, p]) => p);
    for (const rows of chunk(ordered, ROWS_PER_STATEMENT)) {
      // One JSON parameter per statement (jsonb_to_recordset) instead of thousands of bound values.
      const records = rows.map((p) => ({
        uuid: randomUUID(),
        domain_uuid: p.domainUuid,
        visitor_id: p.visitorId,
        attributes: { ...p.attrs, ...(p.visited.length ? { 'visited.url': p.visited } : {}) },
        email: p.email ?? null,
        phone: p.phone ?? null,
        name: p.name ?? null,
        first_seen: p.first.toISOString(),
        last_seen: p.last.toISOString(),
      }));
      // Attributes merge key by key, the most recent request's values winning (a batch can reach the database after a
      // newer one: overflow, replay after a crash); createdAt and origin are the earliest request's; visited.url
      // accumulates.
      const result = await queryRows<{ uuid: string; domain_uuid: string; visitor_id: string }>(
        db,
        sql`
        INSERT INTO persons AS p (uuid, domain_uuid, visitor_id, attributes, email, phone, name, first_seen, last_seen)
        SELECT r.uuid, r.domain_uuid, r.visitor_id, r.attributes, r.email, r.phone, r.name, r.first_seen, r.last_seen
        FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb) AS r(
          uuid uuid, domain_uuid uuid, visitor_id text, attributes jsonb, email text, phone text, name text,
          first_seen timestamptz, last_seen timestamptz)
        ON CONFLICT (domain_uuid, visitor_id) DO UPDATE SET
          attributes = CASE WHEN excluded.last_seen >= p.last_seen
              THEN p.attributes || (excluded.attributes - 'createdAt' - 'origin' - 'visited.url')
              ELSE (excluded.attributes - 'createdAt' - 'origin' - 'visited.url') || p.attributes END
            || CASE WHEN excluded.first_seen < p.first_seen THEN jsonb_strip_nulls(jsonb_build_object(
              'createdAt', excluded.attributes -> 'createdAt', 'origin', excluded.attributes -> 'origin'))
              ELSE '{}'::jsonb END
            || CASE WHEN excluded.attributes ? 'visited.url' THEN jsonb_build_object('visited.url', (
              SELECT coalesce(jsonb_agg(v), '[]'::jsonb) FROM (
                SELECT DISTINCT v FROM jsonb_array_elements(
                  coalesce(p.attributes -> 'visited.url', '[]'::jsonb) || (excluded.attributes -> 'visited.url')
                ) AS v LIMIT ${MAX_VISITED}
              ) AS visited
            )) ELSE '{}'::jsonb END,
          email = CASE WHEN excluded.last_seen >= p.last_seen THEN coalesce(excluded.email, p.email)
            ELSE coalesce(p.email, excluded.email) END,
          phone = CASE WHEN excluded.last_seen >= p.last_seen THEN coalesce(excluded.phone, p.phone)
            ELSE coalesce(p.phone, excluded.phone) END,
          name = CASE WHEN excluded.last_seen >= p.last_seen THEN coalesce(excluded.name, p.name)
            ELSE coalesce(p.name, excluded.name) END,
          first_seen = least(p.first_seen, excluded.first_seen),
          last_seen = greatest(p.last_seen, excluded.last_seen)
        RETURNING uuid, domain_uuid, visitor_id`,
      );
      for (const row of result) personUuid.set(`${row.domain_uuid}|${row.visitor_id}`, row.uuid);
    }

    // GCD reports only move their item's counters (recordDcm); they are not stored as events.
    const kept = batch.filter((item) => item.event.t !== 'dcm');
    for (const rows of chunk(kept, EVENTS_PER_STATEMENT)) {
      const records = rows.map((item) => {
        const e = item.event;
        const props =
          e.t === 'ev' || e.t === 'id'
            ? (e.p ?? {})
            : e.t === 'pv'
              ? { referrer: e.r, title: e.ti }
              : e.t === 'viewed' || e.t === 'clicked'
                ? { delivery_id: e.d }
                : e.t === 'optin'
                  ? { endpoint: e.s.endpoint }
                  : e.t === 'cv'
                    ? { value: e.v, ...(e.o ? { order_id: e.o } : {}) }
                    : {};
        return {
          domain_uuid: item.domainUuid,
          person_uuid: personUuid.get(`${item.domainUuid}|${item.visitorId}`)!,
          kind: KIND[e.t],
          url: e.t === 'pv' ? e.u : null,
          category: e.t === 'ev' ? e.c : null,
          props,
          device: item.device.device,
          ts: item.receivedAt.toISOString(),
        };
      });
      await insertEvents(db, records, stored);
    }

    await recordDcm(db, batch);
    await recordPush(db, batch, personUuid);
    await recordCatalogue(db, batch);
    await recordRollups(db, batch, personUuid);
  };

  /**
   * Drops what erased visitors sent before their erasure (LGPD): requests accepted then but stored only now (a spool
   * replayed after a crash, another process's queue) must not bring the person back. One indexed read per batch;
   * hashes are computed only for the domains that have recent erasures.
   */
  const withoutErased = async <T extends IncomingEvent & { visitorId: string }>(db: Db, batch: T[]) => {
    if (batch.length === 0) return batch;
    const domainsInBatch = [...new Set(batch.map((item) => item.domainUuid))];
    const erased = await queryRows<{ d: string; h: string; at: Date | string }>(
      db,
      sql`SELECT domain_uuid AS d, visitor_hash AS h, erased_at AS at FROM person_erasures
          WHERE domain_uuid IN (SELECT value::uuid FROM jsonb_array_elements_text(${JSON.stringify(domainsInBatch)}::jsonb))`,
    );
    if (erased.length === 0) return batch;
    const erasedAt = new Map(erased.map((e) => [`${e.d}|${e.h}`, new Date(e.at).getTime()]));
    const hashes = new Map<string, string>();
    return batch.filter((item) => {
      const key = `${item.domainUuid}|${item.visitorId}`;
      let hash = hashes.get(key);
      if (hash === undefined) {
        hash = visitorHash(item.domainUuid, item.visitorId);
        hashes.set(key, hash);
      }
      const at = erasedAt.get(`${item.domainUuid}|${hash}`);
      return at === undefined || item.receivedAt.getTime() > at;
    });
  };

  /**
   * The service worker knows no visitor: viewed/clicked are kept with their delivery id (the engine
   * attributes them), and a changed subscription replaces the old endpoint's.
   */
  const recordWorkerReports = async (db: Db, items: IncomingEvent[], stored: StoredEvent[]) => {
    const reports = items.filter((i) => i.event.t === 'viewed' || i.event.t === 'clicked');
    for (const rows of chunk(reports, EVENTS_PER_STATEMENT)) {
      await insertEvents(
        db,
        rows.map((item) => {
          const e = item.event as Extract<CollectEvent, { t: 'viewed' | 'clicked' }>;
          return {
            domain_uuid: item.domainUuid,
            person_uuid: null,
            kind: KIND[e.t],
            url: null,
            category: null,
            props: { delivery_id: e.d },
            device: item.device.device,
            ts: item.receivedAt.toISOString(),
          };
        }),
        stored,
      );
    }
    for (const item of items) {
      const e = item.event;
      if (e.t !== 'optin' || !e.o) continue;
      await db.execute(sql`
        UPDATE persons SET push_subscription = ${JSON.stringify(e.s)}::jsonb, push_status = 'subscribed'
        WHERE domain_uuid = ${item.domainUuid}::uuid AND push_subscription ->> 'endpoint' = ${e.o}`);
    }
  };

  /**
   * GCD reports (the tag's injector) bump their item's counters in dcm_stats, only for an item of the reporting
   * domain. The latest 'missing' report sets the item's broken-selector page; a later showing clears it.
   */
  const recordDcm = async (db: Db, batch: IncomingEvent[]) => {
    const items = new Map<
      string,
      {
        m: string;
        d: string;
        shown: number;
        clicked: number;
        page: string | null;
        missing: string | null;
        seen: string | null;
      }
    >();
    for (const item of batch) {
      const e = item.event;
      if (e.t !== 'dcm') continue;
      const key = `${item.domainUuid}|${e.m}`;
      let r = items.get(key);
      if (!r) {
        r = { m: e.m, d: item.domainUuid, shown: 0, clicked: 0, page: null, missing: null, seen: null };
        items.set(key, r);
      }
      const at = item.receivedAt.toISOString();
      if (e.k === 'viewed') {
        r.shown++;
        if (!r.seen || at > r.seen) r.seen = at;
      } else if (e.k === 'clicked') r.clicked++;
      else if (!r.missing || at >= r.missing) {
        r.missing = at;
        r.page = (e.u ?? '').slice(0, 2048);
      }
    }
    if (items.size === 0) return;
    const rows = [...items].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
    const records = sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(
      m uuid, d uuid, shown bigint, clicked bigint, page text, missing timestamptz, seen timestamptz)`;
    await db.execute(sql`
      INSERT INTO dcm_stats AS s (momentum_uuid, domain_uuid, shown, clicked, missing_page, missing_at)
      SELECT m.uuid, m.domain_uuid, r.shown, r.clicked, r.page, r.missing
      FROM ${records} JOIN momentums m ON m.uuid = r.m AND m.domain_uuid = r.d AND m.type = 'dcm'
      ON CONFLICT (momentum_uuid) DO UPDATE SET
        shown = s.shown + excluded.shown,
        clicked = s.clicked + excluded.clicked,
        missing_page = CASE WHEN excluded.missing_at IS NOT NULL AND (s.missing_at IS NULL OR excluded.missing_at >= s.missing_at)
          THEN excluded.missing_page ELSE s.missing_page END,
        missing_at = CASE WHEN excluded.missing_at IS NOT NULL AND (s.missing_at IS NULL OR excluded.missing_at >= s.missing_at)
          THEN excluded.missing_at ELSE s.missing_at END`);
    await db.execute(sql`
      UPDATE dcm_stats s SET missing_page = NULL, missing_at = NULL
      FROM ${records}
      WHERE s.momentum_uuid = r.m AND s.domain_uuid = r.d AND r.seen IS NOT NULL AND s.missing_at <= r.seen`);
  };

  /** The last opt-in or opt-out of a person in the batch decides its push state. */
  const recordPush = async (db: Db, batch: IncomingEvent[], personUuid: Map<string, string>) => {
    const last = new Map<string, CollectEvent>();
    for (const item of batch) {
      if (item.event.t === 'optin' || item.event.t === 'optout')
        last.set(personUuid.get(`${item.domainUuid}|${item.visitorId}`)!, item.event);
    }
    for (const [uuid, e] of last) {
      if (e.t === 'optin') {
        await db.execute(
          sql`UPDATE persons SET push_subscription = ${JSON.stringify(e.s)}::jsonb, push_status = 'subscribed' WHERE uuid = ${uuid}::uuid`,
        );
      } else {
        await db.execute(sql`UPDATE persons SET push_status = 'unsubscribed' WHERE uuid = ${uuid}::uuid`);
      }
    }
  };

  const recordCatalogue = async (db: Db, batch: IncomingEvent[]) => {
    const categories = new Map<
      string,
      { domainUuid: string; name: string; count: number; pairs: Map<string, number> }
    >();
    for (const item of batch) {
      const e = item.event;
      if (e.t !== 'ev') continue;
      const key = `${item.domainUuid}|${e.c}`;
      let c = categories.get(key);
      if (!c) {
        c = { domainUuid: item.domainUuid, name: e.c, count: 0, pairs: new Map() };
        categories.set(key, c);
      }
      c.count++;
      for (const [k, v] of Object.entries(e.p ?? {})) {
        const pair = JSON.stringify([k, String(v).slice(0, 200)]);
        c.pairs.set(pair, (c.pairs.get(pair) ?? 0) + 1);
      }
    }
    if (categories.size === 0) return;
    const list = [...categories.values()];
    const values = sql.join(
      list.map((c) => sql`(${randomUUID()}::uuid, ${c.domainUuid}::uuid, ${c.name}, ${c.count})`),
      sql`, `,
    );
    const rows = await queryRows<{ uuid: string; domain_uuid: string; name: string }>(
      db,
      sql`
      INSERT INTO event_categories AS c (uuid, domain_uuid, name, seen_count) VALUES ${values}
      ON CONFLICT (domain_uuid, name) DO UPDATE SET seen_count = c.seen_count + excluded.seen_count
      RETURNING uuid, domain_uuid, name`,
    );
    const uuidOf = new Map(rows.map((r) => [`${r.domain_uuid}|${r.name}`, r.uuid]));
    const pairs = list.flatMap((c) =>
      [...c.pairs].map(([pair, count]) => {
        const [k, v] = JSON.parse(pair) as [string, string];
        return { category: uuidOf.get(`${c.domainUuid}|${c.name}`)!, k, v, count };
      }),
    );
    for (const rowsChunk of chunk(pairs, ROWS_PER_STATEMENT)) {
      await db.execute(sql`
        INSERT INTO event_catalog AS k (category_uuid, key, value, seen_count)
        VALUES ${sql.join(
          rowsChunk.map((p) => sql`(${p.category}::uuid, ${p.k}, ${p.v}, ${p.count})`),
          sql`, `,
        )}
        ON CONFLICT (category_uuid, key, value) DO UPDATE SET seen_count = k.seen_count + excluded.seen_count`);
    }
  };

  /** Daily counters the analytics widgets read instead of scanning events (DESIGN.md §6). */
  const recordRollups = async (db: Db, batch: IncomingEvent[], personUuid: Map<string, string>) => {
    // Keys: uuid|day|dimension|value — only the last part is free text, so the key is unambiguous.
    const counters = new Map<string, { d: string; day: string; dim: string; value: string; count: number }>();
    const visitors = new Map<string, { d: string; day: string; p: string; device: string }>();
    const categoryVisitors = new Map<string, { d: string; day: string; c: string; p: string }>();
    const bump = (d: string, day: string, dim: string, value = '', by = 1) => {
      const key = `${d}|${day}|${dim}|${value}`;
      const counter = counters.get(key);
      if (counter) counter.count += by;
      else counters.set(key, { d, day, dim, value, count: by });
    };
    for (const item of batch) {
      const day = dayOf(item.receivedAt);
      const e = item.event;
      const device = item.device.mobile ? 'mobile' : 'desktop';
      const p = personUuid.get(`${item.domainUuid}|${item.visitorId}`)!;
      const seenKey = `${item.domainUuid}|${day}|${p}`;
      if (!visitors.has(seenKey)) visitors.set(seenKey, { d: item.domainUuid, day, p, device: item.device.device });
      if (e.t === 'pv') {
        bump(item.domainUuid, day, 'pageviews');
        bump(item.domainUuid, day, `page:${device}`, e.u.slice(0, 500));
        bump(item.domainUuid, day, 'device', item.device.device);
      } else if (e.t === 'ev') {
        bump(item.domainUuid, day, 'event', e.c);
        const key = `${seenKey}|${e.c}`;
        if (!categoryVisitors.has(key)) categoryVisitors.set(key, { d: item.domainUuid, day, c: e.c, p });
      } else if (e.t === 'optin') bump(item.domainUuid, day, 'optins');
      else if (e.t === 'optout') bump(item.domainUuid, day, 'optouts');
    }
    // One JSON parameter per statement (jsonb_to_recordset), sorted so concurrent batches lock rows in order.
    const byKey = <T>(entries: Map<string, T>) =>
      [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
    // A visitor's first sighting of the day (or of a category that day) bumps the unique-visitor counters, so a
    // widget sums daily counters instead of counting distinct persons over a range.
    const seen = byKey(visitors);
    for (const rows of chunk(seen, ROWS_PER_STATEMENT * 5)) {
      const fresh = await queryRows<{ d: string; day: string; p: string }>(
        db,
        sql`
        INSERT INTO daily_visitors AS v (domain_uuid, day, person_uuid)
        SELECT r.d, r.day, r.p FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(d uuid, day date, p uuid)
        ON CONFLICT DO NOTHING
        RETURNING v.domain_uuid AS d, to_char(v.day, 'YYYY-MM-DD') AS day, v.person_uuid AS p`,
      );
      for (const f of fresh) {
        bump(f.d, f.day, 'visitors');
        bump(f.d, f.day, 'visitors_device', visitors.get(`${f.d}|${f.day}|${f.p}`)?.device ?? '');
      }
    }
    const seenInCategory = byKey(categoryVisitors);
    for (const rows of chunk(seenInCategory, ROWS_PER_STATEMENT * 5)) {
      const fresh = await queryRows<{ d: string; day: string; c: string }>(
        db,
        sql`
        INSERT INTO daily_event_visitors AS v (domain_uuid, day, category, person_uuid)
        SELECT r.d, r.day, r.c, r.p
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(d uuid, day date, c text, p uuid)
        ON CONFLICT DO NOTHING
        RETURNING v.domain_uuid AS d, to_char(v.day, 'YYYY-MM-DD') AS day, v.category AS c`,
      );
      for (const f of fresh) bump(f.d, f.day, 'event_visitors', f.c);
    }
    const stats = byKey(counters);
    for (const rows of chunk(stats, ROWS_PER_STATEMENT * 5)) {
      await db.execute(sql`
        INSERT INTO daily_stats AS s (domain_uuid, day, dimension, value, count)
        SELECT r.d, r.day, r.dim, r.value, r.count
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(d uuid, day date, dim text, value text, count bigint)
        ON CONFLICT (domain_uuid, day, dimension, value) DO UPDATE SET count = s.count + excluded.count`);
    }
  };

  /** Replays the spool segments of processes that died, one batch at a time; returns the events stored. */
  const recover = async () => {
    if (!spool) return 0;
    let replayed = 0;
    for (const segment of spool.orphans()) {
      const requests = requestsInSegment(segment);
      if (!requests) continue;
      const events = eventCount(requests);
      ctx.log.info({ file: segment.file, events }, 'coletor: lote do spool regravado após queda');
      queued += events;
      replayed += await storeBatch({ requests, events, segment }).finally(() => {
        queued -= events;
      });
    }
    // Every orphan is replayed: a mark older than a day belongs to no segment any more.
    await ctx.db.execute(sql`DELETE FROM ingest_batches WHERE stored_at < now() - interval '1 day'`).catch(() => {});
    return replayed;
  };
  let recovering: Promise<number> = Promise.resolve(0);

  return {
    /**
     * Takes one request's events. False when the queue is full or the spool refused the write: the caller
     * answers 503 and the sender may retry. Once this returns true the events survive a crash of the process.
     */
    push(request: IncomingRequest) {
      const n = request.events.length;
      if (queued + n > maxQueued) {
        // Memory is full: keep the request on disk only, up to the spool's limit.
        if (!spool) return false;
        const line = JSON.stringify(request);
        const bytes = Buffer.byteLength(line) + 1;
        if (deferredBytes + bytes > maxDeferredBytes) return false;
        try {
          spool.defer(line);
        } catch (err) {
          ctx.log.error({ err }, 'coletor: falha ao gravar no spool');
          return false;
        }
        deferredBytes += bytes;
        overflowBytes += bytes;
        overflowEvents += n;
        if (overflowEvents >= FLUSH_EVENTS) sealOverflow();
        schedule();
        return true;
      }
      if (spool) {
        try {
          spool.append(JSON.stringify(request));
        } catch (err) {
          ctx.log.error({ err }, 'coletor: falha ao gravar no spool');
          return false;
        }
      }
      queued += n;
      queue.push(request);
      queueEvents += n;
      if (queueEvents >= FLUSH_EVENTS) flush();
      else schedule();
      return true;
    },
    /**
     * Resolves once the requests pushed so far are in the spool's files (written together, once per turn of the
     * event loop): the collector answers 202 after it. A disk that refuses the write is logged; the events stay
     * accepted in memory (answering 503 for events that will be stored would make senders send them twice).
     */
    async durable() {
      try {
        await spool?.committed();
      } catch (err) {
        ctx.log.error({ err }, 'coletor: falha ao gravar no spool; os eventos aceitos seguem só em memória');
      }
    },
    /** Starts replaying what dead processes left in the spool; `drain` waits for it. */
    recover() {
      recovering = recover().catch((err) => {
        ctx.log.error({ err }, 'coletor: falha ao regravar o spool');
        return 0;
      });
      return recovering;
    },
    /** Writes everything queued and waits for it (tests, shutdown). */
    async drain() {
      await recovering;
      flush();
      while (inFlight.size || waiting.length || deferred.length) {
        pump();
        await Promise.all([...inFlight]);
      }
    },
    /** Drains, then closes the spool (its folder goes when empty); a database still away leaves batches in it. */
    async close() {
      closing = true;
      await this.drain();
      spool?.close();
    },
    /** Events written so far (benchmarks check nothing was lost). */
    stored: () => stored,
    /** Events of requests the database refused, kept in the spool's quarantine folder instead. */
    quarantined: () => quarantined,
    /** Times the database went away (a restart) while batches waited, whether it is away now, the last one's length. */
    outages: () => ({ count: outages, away: outageSince !== undefined, lastSeconds: lastOutageSeconds }),
  };
}
export type Ingestor = ReturnType<typeof createIngestor>;
