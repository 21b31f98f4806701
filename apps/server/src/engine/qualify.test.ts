import { describe, expect, it } from 'vitest';
import { type CompiledMomentum, compileMomentum, type StoredEvent } from './matcher.ts';
import { engineMessages } from './messages.ts';
import {
  type Candidate,
  type Goal,
  matchEvents,
  momentumStopped,
  passesAudience,
  qualifiedDeliveries,
  reachKey,
  startsFromEvents,
  triggerEventsByDomain,
  unreachableReason,
} from './qualify.ts';

/*
 * Qualification alone, without a database: the decisions the engine's matching and send stages write, and that a
 * dry run must be able to ask with no writes.
 */

const DOMAIN = '00000000-0000-4000-8000-0000000000d1';
const ANA = '00000000-0000-4000-8000-00000000000a';
const BIA = '00000000-0000-4000-8000-00000000000b';
const at = (iso: string) => new Date(iso);

const momentum = (uuid: string, blocks: unknown[]): CompiledMomentum =>
  compileMomentum({
    uuid,
    domainUuid: DOMAIN,
    type: 'momentum',
    status: 'Active',
    version: 1,
    blocks,
    worktime: null,
    activatedAt: null,
  });

const trigger = (values: Record<string, unknown>) => ({ type: 'trigger', regex: false, values: [values] });
const push = (extra: Record<string, unknown> = {}) => ({
  type: 'dispatcher',
  values: [{ filter: 'CELL_NOTIFICATION', title: 'Oferta', message: 'Só hoje', ...extra }],
});
const finish = (iso: string) => ({ type: 'finish', values: [{ value: iso }] });
const fromGoogle = {
  type: 'filter',
  values: [{ filter: 'user_stored_data.origin', comparation: '==', value: ['google'] }],
};

let ids = 0;
const view = (personUuid: string | null, url: string, ts: string): StoredEvent => ({
  id: ++ids,
  domainUuid: DOMAIN,
  personUuid,
  kind: 'pageview',
  url,
  category: null,
  props: null,
  ts: at(ts),
});

const offer = momentum('00000000-0000-4000-8000-0000000000a1', [
  fromGoogle,
  trigger({ filter: 'pageview', comparation: 'contain', value: ['/oferta'], dischargeIn: [600] }),
  push(),
]);
const cart = momentum('00000000-0000-4000-8000-0000000000a2', [
  trigger({
    filter: 'abandon',
    comparation: 'contain',
    comparation2: 'contain',
    value: ['/sacola'],
    value2: ['/obrigado'],
    dischargeIn: [1800],
  }),
  push(),
]);

function qualify(events: StoredEvent[], momentums: CompiledMomentum[], subscribed: string[]) {
  const candidates = new Map<string, Candidate>();
  const goals: Goal[] = [];
  for (const list of triggerEventsByDomain(events).values()) matchEvents(list, momentums, candidates, goals);
  // What matching.ts reads from the database: the candidates' push subscriptions.
  const unreachable = new Map<string, string>();
  for (const c of candidates.values()) {
    if (!subscribed.includes(c.personUuid))
      unreachable.set(reachKey(c.momentum.channelType, c.personUuid), engineMessages.noPushSubscription);
  }
  return { candidates, goals, rows: qualifiedDeliveries(candidates.values(), unreachable) };
}

describe('qualification at match time', () => {
  it("a trigger's first view per person starts one delivery, due after the delay; anonymous views start none", () => {
    const { rows } = qualify(
      [
        view(ANA, 'https://loja.com.br/oferta/tenis', '2026-11-20T12:00:00.000Z'),
        view(ANA, 'https://loja.com.br/oferta/meia', '2026-11-20T12:01:00.000Z'),
        view(null, 'https://loja.com.br/oferta/bone', '2026-11-20T12:02:00.000Z'),
        view(BIA, 'https://loja.com.br/contato', '2026-11-20T12:03:00.000Z'),
      ],
      [offer],
      [ANA, BIA],
    );
    expect(rows).toEqual([
      expect.objectContaining({
        momentumUuid: offer.uuid,
        personUuid: ANA,
        channelType: 'CELL_NOTIFICATION',
        dedupeKey: `${offer.uuid}:${ANA}:once`,
        triggerAt: at('2026-11-20T12:00:00.000Z'),
        dueAt: at('2026-11-20T12:10:00.000Z'),
        unlessPending: false,
      }),
    ]);
  });

  it('a push reaches only a subscribed person; one who is not gets a skipped row with the reason, sent nothing', () => {
    const events = [view(ANA, 'https://loja.com.br/oferta', '2026-11-20T12:00:00.000Z')];
    expect(qualify(events, [offer], []).rows).toEqual([
      expect.objectContaining({
        personUuid: ANA,
        dedupeKey: `${offer.uuid}:${ANA}:skipped`,
        skipReason: 'Visitante sem inscrição de push.',
        dueAt: at('2026-11-20T12:00:00.000Z'),
      }),
    ]);
    expect(qualify(events, [offer], [ANA]).rows).toEqual([
      expect.objectContaining({ dedupeKey: `${offer.uuid}:${ANA}:once`, unlessPending: false }),
    ]);
    expect(qualify(events, [offer], [ANA]).rows[0]!.skipReason).toBeUndefined();
  });

  it('a trigger at or after the finish date starts nothing', () => {
    const ending = momentum('00000000-0000-4000-8000-0000000000a3', [
      trigger({ filter: 'pageview', comparation: 'contain', value: ['/oferta'], dischargeIn: [] }),
      push(),
      finish('2026-11-20T12:00:00.000Z'),
    ]);
    expect(qualify([view(ANA, '/oferta', '2026-11-20T11:59:59.000Z')], [ending], [ANA]).rows).toHaveLength(1);
    expect(qualify([view(ANA, '/oferta', '2026-11-20T12:00:00.000Z')], [ending], [ANA]).rows).toEqual([]);
  });

  it("an abandon's goal page is a goal, not a start; the start page starts the chain", () => {
    const { goals, rows } = qualify(
      [
        view(ANA, 'https://loja.com.br/sacola', '2026-11-20T12:00:00.000Z'),
        view(BIA, 'https://loja.com.br/obrigado', '2026-11-20T12:05:00.000Z'),
      ],
      [cart],
      [ANA, BIA],
    );
    expect(goals).toEqual([{ momentumUuid: cart.uuid, personUuid: BIA, at: at('2026-11-20T12:05:00.000Z') }]);
    expect(rows.map((r) => [r.personUuid, r.dueAt.toISOString()])).toEqual([[ANA, '2026-11-20T12:30:00.000Z']]);
  });

  it('recurrences and momentums without a channel are not matched against events', () => {
    const weekly = momentum('00000000-0000-4000-8000-0000000000a4', [
      trigger({ filter: 'recurrence', comparation: 'weekly', value: ['tuesday'], hours: '10:00' }),
      push(),
    ]);
    const silent = momentum('00000000-0000-4000-8000-0000000000a5', [
      trigger({ filter: 'pageview', comparation: 'contain', value: ['/'] }),
    ]);
    expect([offer, weekly, silent].filter(startsFromEvents)).toEqual([offer]);
  });
});

describe('reachability', () => {
  const person = (over: Partial<Parameters<typeof unreachableReason>[1]> = {}) => ({
    push_status: null,
    push_subscription: null,
    email: null,
    phone: null,
    attributes: {},
    ...over,
  });
  const subscription = { endpoint: 'https://push.exemplo.com/1', keys: { p256dh: 'p', auth: 'a' } };

  it('push needs a subscription, SMS a phone and no opt-out, e-mail an address and no unsubscribe', () => {
    expect(unreachableReason('CELL_NOTIFICATION', person())).toBe('Visitante sem inscrição de push.');
    expect(unreachableReason('CELL_NOTIFICATION', person({ push_status: 'unsubscribed' }))).toBe(
      'Visitante sem inscrição de push.',
    );
    expect(
      unreachableReason('CELL_NOTIFICATION', person({ push_status: 'subscribed', push_subscription: subscription })),
    ).toBeNull();
    expect(unreachableReason('ZENVIA', person({ phone: '  ' }))).toBe('Visitante sem telefone.');
    expect(unreachableReason('ZENVIA', person({ phone: '11987654321' }))).toBeNull();
    expect(unreachableReason('ZENVIA', person({ phone: '11987654321', attributes: { 'sms.optout': true } }))).toBe(
      'O visitante pediu para não receber SMS.',
    );
    expect(unreachableReason('AWS_SES', person())).toBe('Visitante sem e-mail.');
    expect(unreachableReason('AKNA', person({ email: 'ana@exemplo.com.br' }))).toBeNull();
    expect(
      unreachableReason('AKNA', person({ email: 'ana@exemplo.com.br', attributes: { 'email.optout': 'true' } })),
    ).toBe('O visitante cancelou o recebimento de e-mails.');
    // On-site messages and GCD reach every visitor; OneSignal answers for its own list at send time.
    for (const channel of ['SUPERARE_WEBVIEW', 'CELL_DCM', 'ONE_SIGNAL'])
      expect(unreachableReason(channel, person())).toBeNull();
  });
});

describe('qualification at send time', () => {
  const now = at('2026-11-20T12:00:00.000Z');

  it("stops a paused momentum's delivery and one past its finish date", () => {
    const ending = momentum('00000000-0000-4000-8000-0000000000a6', [push(), finish('2026-11-20T12:00:00.000Z')]);
    expect(momentumStopped('Active', offer, now)).toBeNull();
    expect(momentumStopped('Paused', offer, now)).toEqual({ status: 'cancelled', error: engineMessages.notActive });
    expect(momentumStopped('Active', ending, at('2026-11-20T11:59:59.000Z'))).toBeNull();
    expect(momentumStopped('Active', ending, now)).toEqual({ status: 'expired', error: engineMessages.expired });
  });

  it('checks the audience filter on the attributes the person has when the delivery is due', () => {
    expect(passesAudience(offer, { origin: 'google' })).toBe(true);
    expect(passesAudience(offer, { origin: 'facebook' })).toBe(false);
    expect(passesAudience(cart, {})).toBe(true);
  });
});
