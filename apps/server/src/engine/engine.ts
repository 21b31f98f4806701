import type { Worktime } from '@impeto/shared';
import { type SQL, sql } from 'drizzle-orm';
import pg from 'pg';
import { z } from 'zod';
import type { ChannelAdapter, ChannelDelivery, SendResult } from '../channels/channel.ts';
import type { AppContext, EngineHooks } from '../lib/context.ts';
import { createSecretBox } from '../lib/secret-box.ts';
import { unsubscribeUrl } from '../lib/unsubscribe-token.ts';
import * as q from './deliveries.queries.ts';
import { createJobRunner, defineJob, type JobDefinition, type JobRunner } from './jobs.ts';
import { type CompiledMomentum, compileMomentum, type StoredEvent } from './matcher.ts';
import { nextRecurrence, nextWorktimeOpening } from './schedule.ts';

/*
 * The engine (DESIGN.md §5, §10). Matching runs where events are stored (api role); sending runs in the
 * worker role. The deliveries table is the send queue; pg-boss runs the timed work: scheduled activation,
 * finish, campaign fan-out and recurrence ticks.
 */

export const engineMessages = {
  notActive: 'O momentum não está mais ativo.',
  finished: 'O momentum foi concluído.',
  expired: 'A data de finalização do momentum passou antes do envio.',
  goalReached: 'O visitante chegou à página de objetivo.',
  outOfAudience: 'O visitante não está mais no público do filtro.',
  noChannel: 'Canal de envio indisponível para este momentum.',
  tooManyAttempts: 'Falhou após várias tentativas.',
  unsubscribed: 'Visitante sem inscrição de push.',
  noProviderChannel: 'O domínio não tem este canal integrado (ou ele foi desativado).',
  credentialsRefused: 'Credenciais recusadas pelo provedor',
  frequencyCap: 'limite de frequência',
} as const;

/** Channels whose adapter needs the channel row's credentials. */
const PROVIDER_CHANNELS = new Set(['ZENVIA', 'AWS_SES', 'AKNA', 'ONE_SIGNAL']);
const EMAIL_CHANNELS = new Set(['AWS_SES', 'AKNA']);

const PUSH_TTL_SECONDS = 2 * 24 * 3600;
const ONSITE_TTL_SECONDS = 7 * 24 * 3600;
const MAX_ATTEMPTS = 5;
const RECORD_EVERY = 100;
const FANOUT_PAGE = 1000;
const MATCHER_TTL_MS = 30_000;

export interface EngineOptions {
  adapters: ChannelAdapter[];
  /** Run pg-boss workers and the send loop in this process (worker and all roles). Tests drive it by hand. */
  work: boolean;
  /** Deliveries claimed per pass, and sends in flight. */
  batchSize?: number;
  concurrency?: number;
  /** Jobs of other modules run by the same pg-boss (the retention purge). */
  jobs?: JobDefinition[];
}

export interface Engine extends EngineHooks {
  onEventsStored(events: StoredEvent[]): Promise<void>;
  /** One send pass: claims what is due, sends it, records it. Answers how many deliveries it handled. */
  dispatchDue(): Promise<number>;
  /** Hands back deliveries stuck in `sending` past the lease (a worker died between send and record). */
  sweep(): Promise<number>;
  /**
   * Runs now, on this process's clock, the timed jobs whose instant has come (activation, finish, fan-out,
   * recurrence) and sends every delivery due: what the demonstration clock does before it moves.
   */
  settle(): Promise<void>;
  jobs: JobRunner;
  /** A visitor's on-site messages, taken once. */
  takeOnsite(domainUuid: string, visitorId: string): Promise<unknown[]>;
  /** Cheap hint: did this process queue an on-site message for the visitor that may still be waiting? */
  mayHaveOnsite(domainUuid: string, visitorId: string): boolean;
  /** The on-site adapter queued a message for this visitor. */
  noteOnsite(domainUuid: string, visitorId: string): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const isUuid = (s: unknown): s is string =>
  typeof s === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);

const cumulative = (gaps: number[]) => {
  const out = [0];
  for (const g of gaps) out.push(out[out.length - 1]! + g);
  return out;
};

async function mapLimit<T>(items: T[], limit: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  const run = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, run));
}

export function createEngine(ctx: AppContext, options: EngineOptions): Engine {
  const { db, clock, log } = ctx;
  const box = createSecretBox(ctx.config.secretKey);
  const adapters = new Map(options.adapters.map((a) => [a.type, a]));
  const batchSize = options.batchSize ?? 500;
  const concurrency = options.concurrency ?? 160;
  const matchers = new Map<string, { at: number; list: CompiledMomentum[] }>();
  const onsiteHint = new Set<string>();
  const vapid = new Map<string, { public: string; private: string; root: string }>();
  const wakers = new Set<() => void>();
  let wakeRequested = false;
  let running = false;
  let loop: Promise<void> | undefined;
  let sweeper: NodeJS.Timeout | undefined;
  let listener: pg.Client | undefined;

  const requestWake = () => {
    wakeRequested = true;
    for (const w of wakers) w();
  };

  // ------------------------------------------------------------------ momentum lifecycle (jobs)

  const loadMomentum = async (uuid: string) => (await q.momentumsByUuid(db, [uuid]))[0];

  const compile = (m: q.DispatchMomentum) =>
    compileMomentum({
      uuid: m.uuid,
      domainUuid: m.domain_uuid,
      type: m.type,
      status: m.status,
      version: m.version,
      blocks: m.momentums,
      worktime: m.worktime as Worktime | null,
      activatedAt: m.activated_at,
    });

  const eligibleSql = (channelType: string | null): SQL =>
    channelType === 'CELL_NOTIFICATION' ? sql`push_status = 'subscribed'` : sql`true`;

  /** Creates the deliveries of one occurrence for the whole filtered audience, page by page. */
  const fanOut = async (m: q.DispatchMomentum, occurrence: string, at: Date) => {
    const compiled = compile(m);
    if (!compiled.channelType) return 0;
    let after: string | null = null;
    let total = 0;
    for (;;) {
      const page = await q.fanOutPage(db, {
        domainUuid: m.domain_uuid,
        momentumUuid: m.uuid,
        channelType: compiled.channelType,
        occurrence,
        at,
        offsets: cumulative(compiled.repeats),
        where: compiled.filter.where,
        eligible: eligibleSql(compiled.channelType),
        after,
        limit: FANOUT_PAGE,
        now: clock.now(),
      });
      total += page.inserted;
      if (page.inserted) requestWake();
      if (page.n < FANOUT_PAGE || !page.last) break;
      after = page.last;
    }
    log.info({ momentum: m.uuid, occurrence, deliveries: total }, 'momentum distribuído ao público');
    return total;
  };

  const momentumRef = z.object({ uuid: z.uuid(), at: z.iso.datetime() });

  /**
   * A timed job that pg-boss hands over before its instant on our clock is sent again for that instant instead of
   * being dropped: pg-boss reads the database's clock, which may run a little ahead of ours (and the demonstration
   * clock is days behind it). Same key: a no-op when that job already waits.
   */
  const tooEarly = async (name: string, uuid: string, at: string) => {
    if (clock.now() >= new Date(at)) return false;
    await jobs.send(name, { uuid, at }, { startAfter: new Date(at), key: `${uuid}:${at}` });
    return true;
  };

  const activateJob = defineJob({
    name: 'momentum.activate',
    payload: momentumRef,
    async handler({ uuid, at }) {
      const m = await loadMomentum(uuid);
      // Only the schedule this job was made for: a re-scheduled or already started item is left alone.
      if (m?.status !== 'Paused' || m.scheduled_at?.toISOString() !== at) return;
      if (await tooEarly('momentum.activate', uuid, at)) return;
      await db.execute(sql`
        UPDATE momentums SET status = 'Active', scheduled_at = NULL, activated_at = ${clock.now()},
          finished_at = NULL, version = version + 1, updated_at = ${clock.now()}
        WHERE uuid = ${uuid}::uuid AND status = 'Paused' AND scheduled_at = ${new Date(at)}`);
      await momentumChanged(uuid);
    },
  });

  const finishJob = defineJob({
    name: 'momentum.finish',
    payload: momentumRef,
    async handler({ uuid, at }) {
      const m = await loadMomentum(uuid);
      if (m?.status !== 'Active' || compile(m).finishAt?.toISOString() !== new Date(at).toISOString()) return;
      if (await tooEarly('momentum.finish', uuid, at)) return;
      await db.execute(sql`
        UPDATE momentums SET status = 'Done', finished_at = ${clock.now()}, version = version + 1,
          updated_at = ${clock.now()}
        WHERE uuid = ${uuid}::uuid AND status = 'Active'`);
      await momentumChanged(uuid);
    },
  });

  const fanoutJob = defineJob({
    name: 'campaign.fanout',
    payload: momentumRef,
    async handler({ uuid, at }) {
      const m = await loadMomentum(uuid);
      if (m?.status !== 'Active' || m.activated_at?.toISOString() !== at) return;
      // One occurrence per campaign: resuming a paused campaign reaches only those it has not reached yet.
      await fanOut(m, 'c', new Date(at));
    },
  });

  const recurrenceJob = defineJob({
    name: 'recurrence.tick',
    payload: momentumRef,
    async handler({ uuid, at }) {
      const m = await loadMomentum(uuid);
      if (m?.status !== 'Active') return;
      const compiled = compile(m);
      if (!compiled.recurrence) return;
      const when = new Date(at);
      if (await tooEarly('recurrence.tick', uuid, at)) return;
      if (!compiled.finishAt || when < compiled.finishAt) await fanOut(m, `r${at}`, when);
      await scheduleNextRecurrence(m, compiled, when);
    },
  });

  const timedJobs = [activateJob, finishJob, fanoutJob, recurrenceJob];
  const jobs = createJobRunner(ctx, [...timedJobs, ...(options.jobs ?? [])]);

  const scheduleNextRecurrence = async (m: q.DispatchMomentum, compiled: CompiledMomentum, after: Date) => {
    const next = nextRecurrence(after, compiled.recurrence!, m.time_zone, m.activated_at ?? after);
    if (compiled.finishAt && next >= compiled.finishAt) return;
    await jobs.send(
      'recurrence.tick',
      { uuid: m.uuid, at: next.toISOString() },
      { startAfter: next, key: `${m.uuid}:${next.toISOString()}` },
    );
  };

  /**
   * Bumped by every invalidation: a matcher list read before a momentum changed (its query in flight when the
   * change committed) is used for the events that asked for it but not cached, or it would hide the change for
   * MATCHER_TTL_MS (a momentum created while a page view of its domain was being matched on another connection).
   */
  let matcherEpoch = 0;
  const invalidate = (domainUuid?: string) => {
    matcherEpoch++;
    if (domainUuid) matchers.delete(domainUuid);
    else matchers.clear();
  };

  async function momentumChanged(uuid: string) {
    const m = await loadMomentum(uuid);
    if (!m) return;
    invalidate(m.domain_uuid);
    if (ctx.database.kind === 'postgres') await db.execute(sql`SELECT pg_notify('impeto_momentums', ${m.domain_uuid})`);
    const now = clock.now();
    if (m.status === 'Paused' && m.scheduled_at) {
      const at = m.scheduled_at.toISOString();
      await jobs.send('momentum.activate', { uuid, at }, { startAfter: m.scheduled_at, key: `${uuid}:${at}` });
    }
    if (m.status !== 'Active') {
      const reason = m.status === 'Done' ? engineMessages.finished : engineMessages.notActive;
      await q.cancelWaiting(db, uuid, reason, now);
      await db.execute(sql`
        DELETE FROM onsite_queue WHERE delivery_id IN (SELECT id FROM deliveries WHERE momentum_uuid = ${uuid}::uuid)`);
      return;
    }
    const compiled = compile(m);
    if (compiled.finishAt) {
      const at = compiled.finishAt.toISOString();
      await jobs.send('momentum.finish', { uuid, at }, { startAfter: compiled.finishAt, key: `${uuid}:${at}` });
    }
    if (m.type === 'campaign' && m.activated_at) {
      const at = m.activated_at.toISOString();
      await jobs.send('campaign.fanout', { uuid, at }, { key: `${uuid}:${at}` });
    }
    if (compiled.recurrence) await scheduleNextRecurrence(m, compiled, now);
  }

  // ------------------------------------------------------------------ matching

  const matchersOf = async (domainUuid: string) => {
    const hit = matchers.get(domainUuid);
    if (hit && Date.now() - hit.at < MATCHER_TTL_MS) return hit.list;
    const epoch = matcherEpoch;
    // One momentum whose stored blocks no longer compile must not stop the domain's others.
    const list = (await q.activeTriggeredMomentums(db, domainUuid))
      .flatMap((m) => {
        try {
          return [compile(m)];
        } catch (err) {
          log.warn({ err, momentum: m.uuid }, 'momentum ignorado: blocos inválidos');
          return [];
        }
      })
      .filter((c) => c.triggerKind && c.triggerKind !== 'recurrence' && c.channelType);
    if (epoch === matcherEpoch) matchers.set(domainUuid, { at: Date.now(), list });
    return list;
  };

  async function onEventsStored(events: StoredEvent[]) {
    const now = clock.now();
    // Reports first: viewed/clicked with a delivery id (from the service worker or the tag).
    const reports = new Map<string, q.Report>();
    for (const e of events) {
      if (e.kind !== 'viewed' && e.kind !== 'clicked') continue;
      const id = e.props?.delivery_id;
      if (!isUuid(id)) continue;
      const r = reports.get(id) ?? { deliveryId: id, domainUuid: e.domainUuid, clicked: false, at: e.ts, eventIds: [] };
      r.clicked ||= e.kind === 'clicked';
      r.eventIds.push(e.id);
      reports.set(id, r);
    }
    await q.applyReports(db, [...reports.values()], now);

    const candidates = new Map<string, { m: CompiledMomentum; personUuid: string; event: StoredEvent }>();
    const goals: { momentumUuid: string; personUuid: string; at: Date }[] = [];
    const byDomain = new Map<string, StoredEvent[]>();
    for (const e of events) {
      if (!e.personUuid || (e.kind !== 'pageview' && e.kind !== 'event')) continue;
      const list = byDomain.get(e.domainUuid);
      if (list) list.push(e);
      else byDomain.set(e.domainUuid, [e]);
    }
    for (const [domainUuid, list] of byDomain) {
      const ms = await matchersOf(domainUuid);
      if (ms.length === 0) continue;
      for (const e of list) {
        for (const m of ms) {
          if (m.cancels(e)) goals.push({ momentumUuid: m.uuid, personUuid: e.personUuid!, at: e.ts });
          const key = `${m.uuid}|${e.personUuid}`;
          if (!candidates.has(key) && m.starts(e)) candidates.set(key, { m, personUuid: e.personUuid!, event: e });
        }
      }
    }
    await q.cancelForGoal(db, goals, engineMessages.goalReached, now);
    if (candidates.size === 0) return;

    const pushPersons = [...candidates.values()]
      .filter((c) => c.m.channelType === 'CELL_NOTIFICATION')
      .map((c) => c.personUuid);
    const subscribed = pushPersons.length ? await q.subscribedPersons(db, pushPersons) : new Set<string>();
    const rows: q.NewDelivery[] = [];
    for (const { m, personUuid, event } of candidates.values()) {
      if (m.channelType === 'CELL_NOTIFICATION' && !subscribed.has(personUuid)) continue;
      if (m.finishAt && event.ts >= m.finishAt) continue;
      const first = new Date(event.ts.getTime() + m.delaySeconds * 1000);
      // Without 'Permitir mais de um envio' a person gets a momentum once; with it, each trigger starts a
      // chain of sends spaced by intervalRecurrency, never stacked on a chain still waiting.
      const repeat = m.repeats.length > 0;
      cumulative(m.repeats).forEach((offset, i) => {
        rows.push({
          domainUuid: m.domainUuid,
          momentumUuid: m.uuid,
          personUuid,
          channelType: m.channelType!,
          dedupeKey: repeat ? `${m.uuid}:${personUuid}:e${event.id}:${i}` : `${m.uuid}:${personUuid}:once`,
          triggerAt: event.ts,
          dueAt: new Date(first.getTime() + offset * 1000),
          unlessPending: repeat,
        });
      });
    }
    const inserted = await q.insertDeliveries(db, rows, now);
    if (inserted.some((d) => new Date(d.due_at) <= clock.now())) {
      requestWake();
      if (ctx.database.kind === 'postgres') await db.execute(sql`SELECT pg_notify('impeto_deliveries', '')`);
    }
  }

  // ------------------------------------------------------------------ sending

  const domainKeys = async (uuids: string[]) => {
    const missing = uuids.filter((u) => !vapid.has(u));
    if (missing.length) {
      for (const d of await q.domainsByUuid(db, missing)) {
        vapid.set(d.uuid, { public: d.vapid_public, private: box.open(d.vapid_private), root: d.domain_root });
      }
    }
    return vapid;
  };

  const backoffSeconds = (attempts: number) => Math.min(3600, 2 ** attempts * 5);

  /** Send passes under way (the loop's and anyone's): `settle` waits for them. */
  const passes = new Set<Promise<number>>();
  function dispatchDue() {
    const pass = dispatchPass();
    passes.add(pass);
    void pass.then(
      () => passes.delete(pass),
      () => passes.delete(pass),
    );
    return pass;
  }

  async function dispatchPass() {
    const now = clock.now();
    const claimed = await q.claimDue(db, now, batchSize);
    if (claimed.length === 0) return 0;
    // A slow batch (push services timing out) keeps its lease, so no sweeper hands it to another worker.
    const renewal = setInterval(
      () =>
        void q
          .renewLease(
            db,
            claimed.map((c) => c.id),
            clock.now(),
          )
          .catch((err) => log.warn({ err }, 'renovação do lease falhou')),
      (ctx.config.deliveryLeaseSeconds * 1000) / 3,
    );
    try {
      const uniq = <T>(list: T[]) => [...new Set(list)];
      const [moms, people] = await Promise.all([
        q.momentumsByUuid(db, uniq(claimed.map((c) => c.momentum_uuid))),
        q.personsByUuid(db, uniq(claimed.map((c) => c.person_uuid))),
      ]);
      const keys = await domainKeys(uniq(claimed.map((c) => c.domain_uuid)));
      const momentumOf = new Map(
        moms.flatMap((m) => {
          try {
            return [[m.uuid, { row: m, compiled: compile(m) }] as const];
          } catch (err) {
            log.warn({ err, momentum: m.uuid }, 'momentum ignorado: blocos inválidos');
            return [];
          }
        }),
      );
      const personOf = new Map(people.map((p) => [p.uuid, p]));
      const providerPairs = uniq(
        claimed.filter((c) => PROVIDER_CHANNELS.has(c.channel_type)).map((c) => `${c.domain_uuid}|${c.channel_type}`),
      ).map((k) => ({ domainUuid: k.split('|')[0]!, channelType: k.split('|')[1]! }));
      const [channelRows, capRows] = await Promise.all([
        q.channelsFor(db, providerPairs),
        q.domainCaps(db, uniq(claimed.map((c) => c.domain_uuid))),
      ]);
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
      let outcomes: q.Outcome[] = [];
      let sent: { personUuid: string; momentumUuid: string }[] = [];
      const gone: string[] = [];
      const refused = new Map<string, string>();
      // Outcomes are written as they come, not once per claimed batch: a worker that dies mid-batch leaves only
      // its last few sends unrecorded (the at-least-once window, DESIGN.md §11: fewer than RECORD_EVERY plus those
      // of one write in progress). One write at a time, each of at least RECORD_EVERY outcomes (the batch's last
      // takes what is left): what arrives while one runs goes into the next statement. Statements that took
      // whatever had arrived averaged 35 rows, and their planning, commit and counter upsert cost PostgreSQL
      // 8.3 s per 100,000 pushes; at 100 or more rows it is about 5 s (bench/RESULTS.md).
      let recording: Promise<void> | undefined;
      let recordFailure: unknown;
      let finishing = false;
      const record = () => {
        if (recording) return;
        recording = (async () => {
          try {
            while (outcomes.length >= (finishing ? 1 : RECORD_EVERY)) {
              const [o, s] = [outcomes, sent];
              outcomes = [];
              sent = [];
              await q.recordOutcomes(db, o, clock.now());
              await q.markNotified(db, s);
            }
          } catch (err) {
            recordFailure ??= err;
          } finally {
            recording = undefined;
          }
        })();
      };

      await mapLimit(claimed, concurrency, async (d) => {
        const m = momentumOf.get(d.momentum_uuid);
        const person = personOf.get(d.person_uuid);
        const done = (status: q.Outcome['status'], error: string | null, extra: Partial<q.Outcome> = {}) => {
          outcomes.push({ id: d.id, status, error, ...extra });
          if (outcomes.length >= RECORD_EVERY) record();
        };
        if (!m || !person) return done('cancelled', engineMessages.notActive);
        const { row, compiled } = m;
        if (row.status !== 'Active') return done('cancelled', engineMessages.notActive);
        if (compiled.finishAt && now >= compiled.finishAt) return done('expired', engineMessages.expired);
        if (compiled.triggerKind === 'abandon') {
          const pages = await q.pagesSince(db, d.person_uuid, d.trigger_at);
          if (pages.some((p) => compiled.reachesGoal(p.url))) return done('cancelled', engineMessages.goalReached);
        }
        if (!compiled.filter.matches({ attributes: person.attributes })) {
          return done('cancelled', engineMessages.outOfAudience);
        }
        const opening = nextWorktimeOpening(now, compiled.worktime, row.time_zone);
        if (opening > now) return done('queued', null, { dueAt: opening, refund: true });
        const adapter = compiled.channelType ? adapters.get(compiled.channelType) : undefined;
        const key = keys.get(d.domain_uuid);
        if (!adapter || !compiled.content || !key) return done('failed', engineMessages.noChannel);
        const channel = PROVIDER_CHANNELS.has(adapter.type)
          ? channelOf.get(`${d.domain_uuid}|${adapter.type}`)
          : undefined;
        if (PROVIDER_CHANNELS.has(adapter.type)) {
          if (!channel) return done('failed', engineMessages.noProviderChannel);
          // Refused credentials fail fast: no call the provider would refuse again, thousands of times.
          if (channel.refused) return done('failed', channel.refused);
        }
        const cap = capOf.get(d.domain_uuid);
        if (cap) {
          const slot = await q.reserveCapSlot(db, {
            deliveryId: d.id,
            personUuid: d.person_uuid,
            now,
            perDay: cap.frequency_cap_day,
            perWeek: cap.frequency_cap_week,
          });
          if (!slot.ok) {
            // With 'Permitir mais de um envio' the message waits for the next allowed moment; otherwise it is skipped.
            return compiled.repeats.length > 0
              ? done('queued', engineMessages.frequencyCap, { dueAt: slot.nextAt, refund: true })
              : done('skipped', engineMessages.frequencyCap);
          }
        }
        const delivery: ChannelDelivery = {
          id: d.id,
          momentumUuid: d.momentum_uuid,
          domain: { uuid: d.domain_uuid, root: key.root, vapidPublic: key.public, vapidPrivate: key.private },
          person: {
            uuid: person.uuid,
            visitorId: person.visitor_id,
            email: person.email,
            phone: person.phone,
            pushSubscription: person.push_status === 'subscribed' ? person.push_subscription : null,
            attributes: person.attributes,
          },
          content: compiled.content,
          channelProperties: channel?.properties ?? {},
          ...(EMAIL_CHANNELS.has(adapter.type)
            ? { unsubscribeUrl: unsubscribeUrl(ctx.config.publicUrl, ctx.config.secretKey, person.uuid) }
            : {}),
          ttlSeconds: compiled.channelType === 'SUPERARE_WEBVIEW' ? ONSITE_TTL_SECONDS : PUSH_TTL_SECONDS,
        };
        let result: SendResult;
        try {
          result = await adapter.send(delivery);
        } catch (err) {
          log.error({ err, delivery: d.id }, 'falha inesperada no canal');
          result = { ok: false, transient: true, reason: (err as Error).message };
        }
        if (result.ok) {
          sent.push({ personUuid: d.person_uuid, momentumUuid: d.momentum_uuid });
          done('sent', null, { sentAt: clock.now() });
          return;
        }
        if (result.gone) gone.push(d.person_uuid);
        if (result.skipped) return done('skipped', result.reason);
        if (result.credentialsRefused && channel) {
          channel.refused = result.reason;
          refused.set(channel.uuid, result.reason);
        }
        if (result.transient && d.attempts < MAX_ATTEMPTS) {
          const wait = result.retryAfterSeconds ?? backoffSeconds(d.attempts);
          return done('queued', result.reason, { dueAt: new Date(clock.now().getTime() + wait * 1000) });
        }
        return done('failed', result.transient ? `${engineMessages.tooManyAttempts} ${result.reason}` : result.reason);
      });

      finishing = true;
      record();
      while (recording) await recording;
      if (recordFailure) throw recordFailure;
      if (gone.length) await markGone(uniq(gone));
      for (const [uuid, reason] of refused) {
        await q.markChannelRefused(db, uuid, reason, clock.now());
        log.warn({ channel: uuid, reason }, 'credenciais do canal recusadas pelo provedor');
      }
      return claimed.length;
    } finally {
      clearInterval(renewal);
    }
  }

  /** A push service said the subscription is gone (404/410): the person opted out. */
  const markGone = async (personUuids: string[]) => {
    const ids = sql`(SELECT value::uuid FROM jsonb_array_elements_text(${JSON.stringify(personUuids)}::jsonb))`;
    await db.execute(sql`UPDATE persons SET push_status = 'unsubscribed' WHERE uuid IN ${ids}`);
    await db.execute(sql`
      INSERT INTO events (domain_uuid, person_uuid, kind, props, device, ts)
      SELECT domain_uuid, uuid, 'optout', '{"reason":"gone"}'::jsonb, NULL, ${clock.now()}
      FROM persons WHERE uuid IN ${ids}`);
  };

  const sweep = async () => {
    const n = await q.requeueStale(db, clock.now(), ctx.config.deliveryLeaseSeconds);
    if (n) {
      log.warn({ deliveries: n }, 'entregas presas em envio devolvidas à fila');
      requestWake();
    }
    return n;
  };

  async function settle() {
    const now = clock.now();
    const names = new Set(timedJobs.map((j) => j.name));
    for (const job of await jobs.waiting()) {
      if (!names.has(job.name) || typeof job.data.at !== 'string' || new Date(job.data.at) > now) continue;
      // pg-boss may run the same job meanwhile: every handler is safe to run twice (dedupe keys, guarded updates).
      await jobs.run(job.name, job.data).catch((err) => log.error({ err, job: job.name }, 'job adiantado falhou'));
    }
    // The send loop may hold a batch it claimed: wait for it, then until nothing due is left.
    for (;;) {
      await Promise.allSettled([...passes]);
      if ((await dispatchDue()) === 0 && passes.size === 0) return;
    }
  }

  const runLoop = async () => {
    while (running) {
      let handled = 0;
      try {
        handled = await dispatchDue();
      } catch (err) {
        log.error({ err }, 'falha no envio de entregas');
      }
      if (handled > 0 || !running) continue;
      if (wakeRequested) {
        wakeRequested = false;
        continue;
      }
      await new Promise<void>((resolve) => {
        const waker = () => {
          clearTimeout(timer);
          wakers.delete(waker);
          resolve();
        };
        const timer = setTimeout(waker, 500);
        wakers.add(waker);
      });
      wakeRequested = false;
    }
  };

  /**
   * LISTEN on its own connection. A lost connection (a database restart) is opened again with a backoff; what was
   * notified meanwhile is unknown, so every matcher is rebuilt and the send loop woken once it is back.
   */
  let listening = false;
  const listen = async () => {
    if (ctx.database.kind !== 'postgres' || !ctx.database.url) return;
    listening = true;
    await openListener(ctx.database.url);
  };
  const openListener = async (url: string) => {
    const client = new pg.Client({ connectionString: url });
    // Until connected, connect() reports the failure; afterwards a lost connection is reopened.
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('LISTEN impeto_momentums');
      await client.query('LISTEN impeto_deliveries');
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
    if (!listening) {
      await client.end().catch(() => {});
      return;
    }
    client.on('notification', (n) => {
      if (n.channel === 'impeto_momentums' && n.payload) invalidate(n.payload);
      else if (n.channel === 'impeto_deliveries') requestWake();
    });
    let lost = false;
    const reopen = (err?: Error) => {
      if (lost) return;
      lost = true;
      void client.end().catch(() => {});
      if (!listening) return;
      log.warn({ err }, 'LISTEN do motor caiu; reconectando');
      const retry = (delay: number) =>
        setTimeout(() => {
          if (!listening) return;
          openListener(url).then(
            () => {
              invalidate();
              requestWake();
            },
            () => retry(Math.min(delay * 2, 5000)),
          );
        }, delay).unref();
      retry(250);
    };
    client.on('error', reopen);
    client.on('end', () => reopen());
    listener = client;
  };

  return {
    momentumChanged,
    onEventsStored,
    dispatchDue,
    sweep,
    settle,
    jobs,
    async takeOnsite(domainUuid, visitorId) {
      onsiteHint.delete(`${domainUuid}|${visitorId}`);
      return q.takeOnsite(db, domainUuid, visitorId, clock.now());
    },
    mayHaveOnsite: (domainUuid, visitorId) => onsiteHint.has(`${domainUuid}|${visitorId}`),
    noteOnsite(domainUuid, visitorId) {
      if (onsiteHint.size > 100_000) onsiteHint.clear();
      onsiteHint.add(`${domainUuid}|${visitorId}`);
    },
    async start() {
      await listen();
      await jobs.start(options.work);
      if (!options.work) return;
      running = true;
      // Two send passes overlap (SKIP LOCKED keeps them apart): one sends while the other waits on its slowest
      // pushes or records, so a claimed batch's tail never idles the sockets.
      loop = Promise.all([runLoop(), runLoop()]).then(() => {});
      sweeper = setInterval(() => void sweep().catch((err) => log.error({ err }, 'sweeper')), 10_000);
      await sweep();
    },
    async stop() {
      running = false;
      for (const w of wakers) w();
      if (sweeper) clearInterval(sweeper);
      await loop;
      await jobs.stop();
      listening = false;
      await listener?.end().catch(() => {});
      for (const a of adapters.values()) await a.close?.();
    },
  };
}
