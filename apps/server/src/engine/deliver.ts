import type { ChannelAdapter, ChannelDelivery, SendResult } from '../channels/channel.ts';
import type { AppContext } from '../lib/context.ts';
import { unsubscribeUrl } from '../lib/unsubscribe-token.ts';
import { decideArm } from './arm.ts';
import { type BatchContext, PROVIDER_CHANNELS } from './batch-context.ts';
import * as q from './deliveries.queries.ts';
import { stepArm, stepCompiled } from './journey.ts';
import { engineMessages } from './messages.ts';
import type { OutcomeRecorder } from './outcome-recorder.ts';
import {
  checksGoal,
  GOAL_REACHED,
  momentumStopped,
  NOT_ACTIVE,
  OUT_OF_AUDIENCE,
  passesAudience,
  reachedGoal,
  unreachableReason,
  type Verdict,
} from './qualify.ts';
import { capDeferral, MAX_ATTEMPTS, quietDeferral, retryAt, worktimeDeferral, worktimeZone } from './timing.ts';

/*
 * The send stage, one claimed delivery: does it still qualify (qualify.ts), is it due now (worktime: timing.ts), which
 * experiment arm is the person in (arm.ts: a control group holds them out, skipped; a variant picks the message), can
 * the channel still reach the person (qualify.ts, reachability: else skipped), is there room under the frequency cap
 * (timing.ts), then its channel's adapter sends it and the outcome goes to the pass's recorder. This runs for every
 * delivery of a campaign: no allocation, await or query beyond what the delivery needs (the abandon goal's pages,
 * the cap's reservation, the send itself).
 */

const EMAIL_CHANNELS = new Set(['AWS_SES', 'AKNA']);
const PUSH_TTL_SECONDS = 2 * 24 * 3600;
const ONSITE_TTL_SECONDS = 7 * 24 * 3600;

export interface SendEnv {
  ctx: Pick<AppContext, 'db' | 'clock' | 'log' | 'config'>;
  adapters: Map<string, ChannelAdapter>;
}

/** One send pass's batch and what its sends hand on. */
export interface PassState {
  now: Date;
  batch: BatchContext;
  recorder: OutcomeRecorder;
  /** Persons whose push subscription the push service said is gone (opted out after the pass). */
  gone: string[];
  /** Channels whose credentials the provider refused, with its reason (marked after the pass). */
  refused: Map<string, string>;
}

const end = (pass: PassState, d: q.ClaimedDelivery, v: Verdict) =>
  pass.recorder.add({ id: d.id, status: v.status, error: v.error });

export async function deliver(env: SendEnv, pass: PassState, d: q.ClaimedDelivery): Promise<void> {
  const { db, clock, log, config } = env.ctx;
  const { now, batch, recorder } = pass;
  const m = batch.momentumOf.get(d.momentum_uuid);
  const person = batch.personOf.get(d.person_uuid);
  if (!m || !person) return end(pass, d, NOT_ACTIVE);
  const { row } = m;
  // A journey step's message (issue #26) goes through its own channel, with its own content.
  const compiled = d.step > 0 ? stepCompiled(m.compiled, row, d.step, d.branch) : m.compiled;
  if (!compiled) return end(pass, d, NOT_ACTIVE);
  const stopped = momentumStopped(row.status, compiled, now);
  if (stopped) return end(pass, d, stopped);
  if (checksGoal(compiled) && reachedGoal(compiled, await q.pagesSince(db, d.person_uuid, d.trigger_at))) {
    return end(pass, d, GOAL_REACHED);
  }
  if (!passesAudience(compiled, person.attributes)) return end(pass, d, OUT_OF_AUDIENCE);
  const opening = worktimeDeferral(now, compiled, worktimeZone(row.timing, person, row.time_zone));
  if (opening) return recorder.add({ id: d.id, status: 'queued', error: null, dueAt: opening, refund: true });
  // Quiet hours (issue #27): push, SMS and e-mail wait for the window's end on the person's clock; nothing is dropped.
  const quietEnd = quietDeferral(now, compiled.channelType, row.quiet_hours, person, row.time_zone);
  if (quietEnd) return recorder.add({ id: d.id, status: 'queued', error: null, dueAt: quietEnd, refund: true });
  // The arm is decided when the message would go out (held-out persons count from then), before the cap is asked.
  // A journey step's A/B test (stepArm) draws over the momentum and the step; no control group there.
  const {
    arm,
    heldOut,
    content: variantContent,
  } = d.step > 0 ? stepArm(row, d.person_uuid, d.step, d.branch) : decideArm(row, d.person_uuid, d.trigger_at);
  if (heldOut) return recorder.add({ id: d.id, status: 'skipped', error: heldOut, arm });
  // Reachable when queued, maybe not now (unsubscribed since): skipped with the reason, before the cap is asked.
  const unreachable = unreachableReason(compiled.channelType, person);
  if (unreachable) return recorder.add({ id: d.id, status: 'skipped', error: unreachable, arm });
  const adapter = compiled.channelType ? env.adapters.get(compiled.channelType) : undefined;
  const key = batch.keys.get(d.domain_uuid);
  if (!adapter || !compiled.content || !key) {
    return recorder.add({ id: d.id, status: 'failed', error: engineMessages.noChannel, arm });
  }
  const channel = PROVIDER_CHANNELS.has(adapter.type)
    ? batch.channelOf.get(`${d.domain_uuid}|${adapter.type}`)
    : undefined;
  if (PROVIDER_CHANNELS.has(adapter.type)) {
    if (!channel) return recorder.add({ id: d.id, status: 'failed', error: engineMessages.noProviderChannel, arm });
    // Refused credentials fail fast: no call the provider would refuse again, thousands of times.
    if (channel.refused) return recorder.add({ id: d.id, status: 'failed', error: channel.refused, arm });
  }
  const cap = batch.capOf.get(d.domain_uuid);
  if (cap) {
    const slot = await q.reserveCapSlot(db, {
      deliveryId: d.id,
      personUuid: d.person_uuid,
      now,
      perDay: cap.frequency_cap_day,
      perWeek: cap.frequency_cap_week,
    });
    if (!slot.ok) {
      const later = capDeferral(compiled, slot.nextAt);
      return later
        ? recorder.add({
            id: d.id,
            status: 'queued',
            error: engineMessages.frequencyCap,
            dueAt: later,
            refund: true,
            arm,
          })
        : recorder.add({ id: d.id, status: 'skipped', error: engineMessages.frequencyCap, arm });
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
    content: variantContent ?? compiled.content,
    channelProperties: channel?.properties ?? {},
    ...(EMAIL_CHANNELS.has(adapter.type)
      ? { unsubscribeUrl: unsubscribeUrl(config.publicUrl, config.secretKey, person.uuid) }
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
    return recorder.addSent(
      { id: d.id, status: 'sent', error: null, sentAt: clock.now(), arm },
      d.person_uuid,
      d.momentum_uuid,
    );
  }
  if (result.gone) pass.gone.push(d.person_uuid);
  if (result.skipped) return recorder.add({ id: d.id, status: 'skipped', error: result.reason, arm });
  if (result.credentialsRefused && channel) {
    channel.refused = result.reason;
    pass.refused.set(channel.uuid, result.reason);
  }
  if (result.transient && d.attempts < MAX_ATTEMPTS) {
    return recorder.add({
      id: d.id,
      status: 'queued',
      error: result.reason,
      dueAt: retryAt(clock.now(), d.attempts, result.retryAfterSeconds),
      arm,
    });
  }
  return recorder.add({
    id: d.id,
    status: 'failed',
    error: result.transient ? `${engineMessages.tooManyAttempts} ${result.reason}` : result.reason,
    arm,
  });
}
