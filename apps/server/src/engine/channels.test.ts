import { randomUUID } from 'node:crypto';
import { filterMessages } from '@impeto/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../test/harness.ts';
import { type AknaPeer, startAknaPeer } from '../../test/peers/akna-peer.ts';
import { type OneSignalPeer, startOneSignalPeer } from '../../test/peers/onesignal-peer.ts';
import { type SesPeer, startSesPeer } from '../../test/peers/ses-peer.ts';
import { startZenviaPeer, type ZenviaPeer } from '../../test/peers/zenvia-peer.ts';
import { createAknaAdapter } from '../channels/akna.ts';
import { createSesAdapter } from '../channels/aws-ses.ts';
import { createZenviaAdapter } from '../channels/zenvia.ts';
import { queryRows } from '../db/client.ts';
import { createEngine } from './engine.ts';

/*
 * SMS, e-mail and OneSignal end to end: channels integrated through the API with credentials, momentums and
 * campaigns created through the API, visitors identified through /collect, and the engine sending to local peers
 * that speak each provider's protocol and check what the provider checks (SigV4 for SES, Basic for Zenvia, the
 * form login for Akna, the REST key for OneSignal).
 */

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SES_KEY = { accessKeyId: 'AKIAIMPETOTEST000001', secretAccessKey: 'segredo/da+chave/de/teste/0123456789abcd' };

let t: TestApp;
let ses: SesPeer;
let zenvia: ZenviaPeer;
let akna: AknaPeer;
let onesignal: OneSignalPeer;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;

type Domain = { uuid: string; gero_id: string; root: string };

beforeAll(async () => {
  [ses, zenvia, akna, onesignal] = await Promise.all([
    startSesPeer({ credentials: { [SES_KEY.accessKeyId]: SES_KEY.secretAccessKey } }),
    startZenviaPeer({ accounts: { loja: 'senha-zenvia' } }),
    startAknaPeer({ accounts: [{ user: 'loja', password: 'senha-akna', client: 'C123' }] }),
    startOneSignalPeer({ apps: { 'app-1': 'chave-rest' } }),
  ]);
  t = await createTestApp({
    authRateLimit: 1000,
    allowPrivateFetch: true,
    publicUrl: 'https://impeto.example',
    providers: { zenvia: zenvia.url, akna: akna.url, oneSignal: onesignal.url, sesEndpoint: ses.url },
  });
  owner = await signUpAndSignIn(t.app);
});
afterAll(async () => {
  await t.close();
  await Promise.all([ses.close(), zenvia.close(), akna.close(), onesignal.close()]);
});
beforeEach(() => {
  t.clock.set(new Date());
});

let domains = 0;
/** A domain with all four channels integrated (each test its own, so campaigns reach only its visitors). */
const domainWithChannels = async (zenviaPassword = 'senha-zenvia'): Promise<Domain> => {
  const root = `https://loja-canais-${++domains}.com.br`;
  const d = { ...(await createDomain(t.app, owner, `Canais ${domains}`, root)), root };
  const channels = [
    { channel_type: 'ZENVIA', properties: { login: 'loja', password: zenviaPassword, sender: 'Loja' } },
    { channel_type: 'AWS_SES', properties: { ...SES_KEY, region: 'sa-east-1', source: 'ofertas@loja.com.br' } },
    { channel_type: 'AKNA', properties: { username: 'loja', password: 'senha-akna', client: 'C123' } },
    { channel_type: 'ONE_SIGNAL', properties: { oneSignalAppId: 'app-1', oneSignalApiId: 'chave-rest' } },
  ];
  for (const channel of channels) {
    const res = await call(
      t.app,
      'POST',
      '/api/channel/create',
      { channel: { domain_uuid: d.uuid, ...channel } },
      owner.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  return d;
};

const collect = async (target: Domain, vid: string, events: object[]) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/collect',
    headers: { 'content-type': 'text/plain', origin: target.root, 'user-agent': CHROME },
    payload: JSON.stringify({ id: target.gero_id, vid, e: events }),
  });
  expect(res.statusCode).toBe(202);
  await t.app.ingestor.drain();
};

let people = 0;
/** A visitor who told the site who they are (gero('identify', …)). */
const identified = async (target: Domain, props: Record<string, unknown> = {}) => {
  const n = ++people;
  const vid = `v-${randomUUID()}`;
  const contact = {
    email: `cliente${n}@exemplo.com.br`,
    phone: `(11) 9${String(8765_0000 + n).padStart(8, '0')}`,
    ...props,
  };
  await collect(target, vid, [
    { t: 'pv', u: `${target.root}/` },
    { t: 'id', p: contact },
  ]);
  return { vid, ...contact } as { vid: string; email?: string; phone?: string; external_id?: string };
};

const pageview = (target: Domain, vid: string, path: string) =>
  collect(target, vid, [{ t: 'pv', u: `${target.root}${path}` }]);

const everyone = { type: 'filter', values: [{ filter: 'all' }] };
const onPage = (path: string) => ({
  type: 'trigger',
  regex: false,
  values: [{ filter: 'pageview', comparation: 'contain', value: [path], dischargeIn: [] }],
});
const dispatcher = (values: Record<string, unknown>) => ({ type: 'dispatcher', values: [values] });

const CONTENT: Record<string, Record<string, unknown>> = {
  ZENVIA: { filter: 'ZENVIA', body: 'Seu carrinho te espera: 10% off hoje.' },
  AWS_SES: {
    filter: 'AWS_SES',
    subject: 'Volte ao seu carrinho',
    body: '<h1>Oi!</h1><p>Seu carrinho <b>te espera</b>.</p><script>alert(1)</script><a href="https://loja.com.br/c" onclick="x()">Ver carrinho</a><a href="javascript:alert(2)">mal</a>',
  },
  AKNA: {
    filter: 'AKNA',
    action_id: 'acao-7',
    message_id: 'msg-42',
    name_sender: 'Loja',
    mail_sender: 'ofertas@loja.com.br',
    subject: 'Ofertas da semana',
    mail_return: 'retorno@loja.com.br',
  },
  ONE_SIGNAL: {
    filter: 'ONE_SIGNAL',
    title: 'Oferta relâmpago',
    url: 'https://loja.com.br/oferta',
    message_pt: 'Só hoje: frete grátis',
    message_en: 'Today only: free shipping',
    web_image: 'https://loja.com.br/banner.png',
  },
};

let titles = 0;
const createItem = async (target: Domain, type: 'momentum' | 'campaign', momentums: object[]) => {
  const res = await call(
    t.app,
    'POST',
    '/api/momentum/create',
    { domain_uuid: target.uuid, type, momentum_title: `Canal ${++titles}`, status: 'Active', momentums },
    owner.token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.uuid as string;
};

const runCampaign = async (uuid: string) => {
  const jobs = (await t.app.engine.jobs.waiting('campaign.fanout')).filter((j) => j.data.uuid === uuid);
  expect(jobs).toHaveLength(1);
  await t.app.engine.jobs.run('campaign.fanout', jobs[0]!.data);
};

const dispatchAll = async () => {
  while ((await t.app.engine.dispatchDue()) > 0);
};

const deliveriesOf = (momentumUuid: string) =>
  queryRows<{ id: string; status: string; error: string | null; person_uuid: string; due_at: string }>(
    t.app.ctx.db,
    sql`SELECT id, status, error, person_uuid, due_at::text FROM deliveries WHERE momentum_uuid = ${momentumUuid}::uuid
        ORDER BY created_at, trigger_at, dedupe_key`,
  );

const personUuid = async (target: Domain, vid: string) =>
  (
    await queryRows<{ uuid: string }>(
      t.app.ctx.db,
      sql`SELECT uuid FROM persons WHERE domain_uuid = ${target.uuid}::uuid AND visitor_id = ${vid}`,
    )
  )[0]!.uuid;

/** What each peer received for this visitor. */
const receivedBy = (channel: string, who: { email?: string; phone?: string; vid: string; external_id?: string }) => {
  switch (channel) {
    case 'ZENVIA':
      return zenvia.received.filter((m) => who.phone && m.to === `55${who.phone.replace(/\D/g, '')}`);
    case 'AWS_SES':
      return ses.received.filter((m) => m.to.includes(who.email ?? '-'));
    case 'AKNA':
      return akna.received.filter((m) => m.to === who.email);
    default:
      return onesignal.received.filter((m) => m.externalIds.includes(who.external_id ?? who.vid));
  }
};

describe('every channel delivers', () => {
  it.each(['ZENVIA', 'AWS_SES', 'AKNA', 'ONE_SIGNAL'])('%s: a page view reaches the provider', async (channel) => {
    const d = await domainWithChannels();
    const m = await createItem(d, 'momentum', [everyone, onPage('/carrinho'), dispatcher(CONTENT[channel]!)]);
    const who = await identified(d, channel === 'ONE_SIGNAL' ? { external_id: `cliente-${randomUUID()}` } : {});
    if (channel === 'ONE_SIGNAL') onesignal.subscribe(who.external_id!);
    await pageview(d, who.vid, '/carrinho');
    await dispatchAll();
    const [delivery] = await deliveriesOf(m);
    expect(delivery, JSON.stringify(delivery)).toMatchObject({ status: 'sent', error: null });
    const got = receivedBy(channel, who);
    expect(got).toHaveLength(1);
    const p = await personUuid(d, who.vid);

    if (channel === 'ZENVIA') {
      expect(got[0]).toMatchObject({ from: 'Loja', msg: CONTENT.ZENVIA!.body, id: delivery!.id });
      expect((got[0] as { to: string }).to).toMatch(/^5511\d{9}$/);
    }
    if (channel === 'AWS_SES') {
      const email = ses.received.find((e) => e.to.includes(who.email!))!;
      expect(email).toMatchObject({
        from: 'ofertas@loja.com.br',
        subject: 'Volte ao seu carrinho',
        region: 'sa-east-1',
        accessKeyId: SES_KEY.accessKeyId,
      });
      // Sanitised: no script, no handler, no javascript: link; the real link kept.
      expect(email.html).toContain('<b>te espera</b>');
      expect(email.html).toContain('href="https://loja.com.br/c"');
      expect(email.html).not.toMatch(/script|onclick|javascript:/i);
      // The plain-text part is generated from the HTML, with the link's address.
      expect(email.text).toContain('Seu carrinho te espera.');
      expect(email.text).toContain('Ver carrinho (https://loja.com.br/c)');
      expect(email.text).not.toContain('<');
      const unsubscribe = email.headers['List-Unsubscribe']!;
      expect(unsubscribe).toMatch(/^<https:\/\/impeto\.example\/api\/unsubscribe\/[\w-]+\.[\w-]+>$/);
      expect(email.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
      expect(email.text).toContain(unsubscribe.slice(1, -1));
    }
    if (channel === 'AKNA') {
      expect(got[0]).toMatchObject({
        client: 'C123',
        user: 'loja',
        code: delivery!.id,
        fields: {
          acao: 'acao-7',
          mensagem: 'msg-42',
          nome_remetente: 'Loja',
          email_remetente: 'ofertas@loja.com.br',
          assunto: 'Ofertas da semana',
          email_retorno: 'retorno@loja.com.br',
        },
      });
    }
    if (channel === 'ONE_SIGNAL') {
      expect(got[0]).toMatchObject({
        appId: 'app-1',
        headings: { pt: 'Oferta relâmpago', en: 'Oferta relâmpago' },
        contents: { pt: 'Só hoje: frete grátis', en: 'Today only: free shipping' },
        url: 'https://loja.com.br/oferta',
        image: 'https://loja.com.br/banner.png',
      });
    }
    expect(p).toBeTruthy();
  });

  it.each(['ZENVIA', 'AWS_SES', 'AKNA', 'ONE_SIGNAL'])(
    '%s: a campaign reaches every person it can, and records why it skipped the others',
    async (channel) => {
      const d = await domainWithChannels();
      const reachable = [];
      for (let i = 0; i < 3; i++) {
        const who = await identified(d, channel === 'ONE_SIGNAL' ? { external_id: `c-${randomUUID()}` } : {});
        if (channel === 'ONE_SIGNAL') onesignal.subscribe(who.external_id!);
        reachable.push(who);
      }
      // A visitor who never identified: no e-mail, no phone, no OneSignal subscription.
      const anonymous = `anon-${randomUUID()}`;
      await collect(d, anonymous, [{ t: 'pv', u: `${d.root}/` }]);
      const uuid = await createItem(d, 'campaign', [everyone, dispatcher(CONTENT[channel]!)]);
      await runCampaign(uuid);
      await dispatchAll();
      for (const who of reachable) expect(receivedBy(channel, who)).toHaveLength(1);
      const rows = await deliveriesOf(uuid);
      expect(rows).toHaveLength(4);
      const anonymousUuid = await personUuid(d, anonymous);
      const skipped = rows.find((r) => r.person_uuid === anonymousUuid)!;
      const reason = {
        ZENVIA: 'Visitante sem telefone.',
        AWS_SES: 'Visitante sem e-mail.',
        AKNA: 'Visitante sem e-mail.',
        ONE_SIGNAL: expect.stringContaining('Visitante sem inscrição no OneSignal'),
      }[channel];
      expect(skipped).toMatchObject({ status: 'skipped', error: reason });
      expect(rows.filter((r) => r.status === 'sent')).toHaveLength(3);
    },
  );
});

describe('OneSignal block', () => {
  it('both messages are required on the server (spec doc 2 §5)', async () => {
    const d = await domainWithChannels();
    const { message_en: _en, ...withoutEnglish } = CONTENT.ONE_SIGNAL!;
    const res = await call(
      t.app,
      'POST',
      '/api/momentum/create',
      {
        domain_uuid: d.uuid,
        type: 'campaign',
        momentum_title: `Sem inglês ${++titles}`,
        status: 'Active',
        momentums: [everyone, dispatcher(withoutEnglish)],
      },
      owner.token,
    );
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(filterMessages.oneSignalEnRequired);
  });
});

describe('provider errors', () => {
  it('a permanent refusal fails the delivery with the provider message kept', async () => {
    const d = await domainWithChannels();
    const m = await createItem(d, 'momentum', [everyone, onPage('/recusa'), dispatcher(CONTENT.AWS_SES!)]);
    const who = await identified(d);
    ses.failWith(400, 'MessageRejected', 'Email address is not verified. The following identities failed the check');
    await pageview(d, who.vid, '/recusa');
    await dispatchAll();
    const [row] = await deliveriesOf(m);
    expect(row!.status).toBe('failed');
    expect(row!.error).toContain('Email address is not verified');
    expect(receivedBy('AWS_SES', who)).toHaveLength(0);
  });

  it('a transient error waits for Retry-After, then the message goes out once', async () => {
    const d = await domainWithChannels();
    const m = await createItem(d, 'momentum', [everyone, onPage('/espera'), dispatcher(CONTENT.ZENVIA!)]);
    const who = await identified(d);
    zenvia.respondWith({ status: 429, headers: { 'retry-after': '120' }, body: '{"error":"rate limited"}' });
    await pageview(d, who.vid, '/espera');
    const before = t.clock.now().getTime();
    await dispatchAll();
    const [waiting] = await deliveriesOf(m);
    expect(waiting!.status).toBe('queued');
    expect(waiting!.error).toContain('Zenvia limitou o envio (429)');
    const wait = new Date(waiting!.due_at).getTime() - before;
    expect(wait).toBeGreaterThanOrEqual(119_000);
    expect(wait).toBeLessThan(130_000);
    t.clock.advance(60_000);
    await dispatchAll();
    expect(receivedBy('ZENVIA', who)).toHaveLength(0);
    t.clock.advance(61_000);
    await dispatchAll();
    expect(receivedBy('ZENVIA', who)).toHaveLength(1);
    expect((await deliveriesOf(m))[0]).toMatchObject({ status: 'sent', error: null });
  });

  it('a 5xx from SES is retried with backoff', async () => {
    const d = await domainWithChannels();
    const m = await createItem(d, 'momentum', [everyone, onPage('/instavel'), dispatcher(CONTENT.AWS_SES!)]);
    const who = await identified(d);
    ses.failWith(503, 'ServiceUnavailable', 'Service is unavailable, try again');
    await pageview(d, who.vid, '/instavel');
    await dispatchAll();
    expect((await deliveriesOf(m))[0]!.status).toBe('queued');
    t.clock.advance(3600_000);
    await dispatchAll();
    expect(receivedBy('AWS_SES', who)).toHaveLength(1);
  });

  it('refused credentials mark the channel, fail fast, and clear when the credentials are edited', async () => {
    const d = await domainWithChannels('senha-errada');
    const m = await createItem(d, 'momentum', [everyone, onPage('/sms'), dispatcher(CONTENT.ZENVIA!)]);
    const a = await identified(d);
    await pageview(d, a.vid, '/sms');
    await dispatchAll();
    const [first] = await deliveriesOf(m);
    expect(first!.status).toBe('failed');
    expect(first!.error).toContain('Credenciais recusadas pelo provedor');
    const list = await call(t.app, 'GET', `/api/domain/channels/${d.uuid}`, undefined, owner.token);
    const zenviaItem = list.body.data.find((c: { channel_type: string }) => c.channel_type === 'ZENVIA');
    expect(zenviaItem.credentials_refused.reason).toContain('Credenciais recusadas pelo provedor');
    expect(JSON.stringify(zenviaItem)).not.toContain('senha-errada');

    // Another send fails without knocking on the provider's door again.
    const calls = zenvia.requestCount();
    const b = await identified(d);
    await pageview(d, b.vid, '/sms');
    await dispatchAll();
    expect(zenvia.requestCount()).toBe(calls);
    expect((await deliveriesOf(m)).map((r) => r.status)).toEqual(['failed', 'failed']);

    const fixed = await call(
      t.app,
      'PUT',
      '/api/channel/update',
      {
        channel: {
          uuid: zenviaItem.uuid,
          domain_uuid: d.uuid,
          channel_type: 'ZENVIA',
          properties: { login: 'loja', password: 'senha-zenvia', sender: 'Loja' },
        },
      },
      owner.token,
    );
    expect(fixed.status).toBe(200);
    expect(fixed.body.data.credentials_refused).toBeUndefined();
    const c = await identified(d);
    await pageview(d, c.vid, '/sms');
    await dispatchAll();
    expect(receivedBy('ZENVIA', c)).toHaveLength(1);
  });

  it('an invalid phone is skipped with its reason; a long SMS fails before reaching Zenvia', async () => {
    const d = await domainWithChannels();
    const m = await createItem(d, 'momentum', [everyone, onPage('/fone'), dispatcher(CONTENT.ZENVIA!)]);
    const who = await identified(d, { phone: '12345' });
    await pageview(d, who.vid, '/fone');
    await dispatchAll();
    expect((await deliveriesOf(m))[0]).toMatchObject({ status: 'skipped', error: 'Telefone do visitante inválido.' });

    const long = await createItem(d, 'momentum', [
      everyone,
      onPage('/longo'),
      dispatcher({ filter: 'ZENVIA', body: 'x'.repeat(161) }),
    ]);
    const other = await identified(d);
    const calls = zenvia.requestCount();
    await pageview(d, other.vid, '/longo');
    await dispatchAll();
    expect((await deliveriesOf(long))[0]).toMatchObject({
      status: 'failed',
      error: 'O SMS tem 161 caracteres; a Zenvia aceita até 160.',
    });
    expect(zenvia.requestCount()).toBe(calls);
  });
});

describe('e-mail campaigns through SES in bulk', () => {
  const sesTo = (who: { email?: string }) => ses.received.filter((e) => e.to.includes(who.email ?? '-'));
  const campaignTo = async (n: number) => {
    const d = await domainWithChannels();
    const who = [];
    for (let i = 0; i < n; i++) who.push(await identified(d));
    const m = await createItem(d, 'campaign', [everyone, dispatcher(CONTENT.AWS_SES!)]);
    return { d, who, m };
  };

  it('one SendBulkEmail call, each e-mail with its own unsubscribe link, headers and delivery; a refused address fails alone', async () => {
    const { d, who, m } = await campaignTo(4);
    ses.rejectAddress(who[2]!.email!, 'Address is on the account-level suppression list.');
    const calls = ses.bulkCalls;
    await runCampaign(m);
    await dispatchAll();
    expect(ses.bulkCalls - calls).toBe(1);

    const deliveries = await deliveriesOf(m);
    const byPerson = new Map(deliveries.map((r) => [r.person_uuid, r]));
    const links = new Set<string>();
    for (const [i, person] of who.entries()) {
      const delivery = byPerson.get(await personUuid(d, person.vid))!;
      if (i === 2) {
        expect(delivery).toMatchObject({
          status: 'failed',
          error: 'Amazon SES recusou o e-mail (MESSAGE_REJECTED): Address is on the account-level suppression list.',
        });
        expect(sesTo(person)).toHaveLength(0);
        continue;
      }
      expect(delivery.status).toBe('sent');
      const [email] = sesTo(person);
      expect(email).toMatchObject({ bulk: true, from: 'ofertas@loja.com.br', subject: 'Volte ao seu carrinho' });
      expect(email!.tags.delivery).toBe(delivery.id);
      expect(email!.html).toContain('<b>te espera</b>');
      expect(email!.html).not.toMatch(/script|onclick|javascript:|\{\{/i);
      const link = email!.headers['List-Unsubscribe']!.slice(1, -1);
      expect(email!.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
      expect(email!.text).toContain(`: ${link}`);
      expect(email!.html).toContain(`href="${link}"`);
      links.add(link);
    }
    expect(links.size).toBe(3);

    // The link of a bulk e-mail unsubscribes its own person.
    const res = await t.app.inject({
      method: 'POST',
      url: new URL([...links][0]!).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(res.statusCode).toBe(200);
    const [person] = await queryRows<{ attributes: Record<string, unknown> }>(
      t.app.ctx.db,
      sql`SELECT attributes FROM persons WHERE domain_uuid = ${d.uuid}::uuid AND visitor_id = ${who[0]!.vid}`,
    );
    expect(person!.attributes['email.optout']).toBe(true);
  });

  it('a bulk call refused as a whole is sent again one e-mail at a time', async () => {
    const { who, m } = await campaignTo(3);
    ses.failWith(400, 'BadRequestException', 'Invalid destination in request');
    await runCampaign(m);
    await dispatchAll();
    expect((await deliveriesOf(m)).map((r) => r.status)).toEqual(['sent', 'sent', 'sent']);
    for (const person of who) expect(sesTo(person).map((e) => e.bulk)).toEqual([false]);
  });

  it('a throttled bulk call waits for Retry-After for all, then each e-mail goes out once', async () => {
    const { who, m } = await campaignTo(3);
    ses.failWith(429, 'TooManyRequestsException', 'Maximum sending rate exceeded.', 1, { 'retry-after': '120' });
    await runCampaign(m);
    await dispatchAll();
    const waiting = await deliveriesOf(m);
    expect(waiting.map((r) => r.status)).toEqual(['queued', 'queued', 'queued']);
    expect(waiting[0]!.error).toContain('Amazon SES limitou o envio');
    for (const person of who) expect(sesTo(person)).toHaveLength(0);
    t.clock.advance(121_000);
    await dispatchAll();
    expect((await deliveriesOf(m)).map((r) => r.status)).toEqual(['sent', 'sent', 'sent']);
    for (const person of who) expect(sesTo(person)).toHaveLength(1);
  });
});

describe('unsubscribe', () => {
  it('one-click unsubscribe (RFC 8058) stops every later e-mail, without signing in', async () => {
    const d = await domainWithChannels();
    const first = await createItem(d, 'momentum', [everyone, onPage('/um'), dispatcher(CONTENT.AWS_SES!)]);
    const who = await identified(d);
    await pageview(d, who.vid, '/um');
    await dispatchAll();
    const email = ses.received.find((e) => e.to.includes(who.email!))!;
    const link = new URL(email.headers['List-Unsubscribe']!.slice(1, -1));

    const page = await t.app.inject({ method: 'GET', url: link.pathname });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Cancelar inscrição');
    // Another signature: its first character changed (the last ones carry bits a decoder may ignore).
    const [path, sig] = link.pathname.split('.') as [string, string];
    const forged = await t.app.inject({
      method: 'POST',
      url: `${path}.${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(forged.statusCode).toBe(404);

    const res = await t.app.inject({
      method: 'POST',
      url: link.pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(res.statusCode).toBe(200);
    const [person] = await queryRows<{ attributes: Record<string, unknown> }>(
      t.app.ctx.db,
      sql`SELECT attributes FROM persons WHERE domain_uuid = ${d.uuid}::uuid AND visitor_id = ${who.vid}`,
    );
    expect(person!.attributes['email.optout']).toBe(true);

    // Neither SES nor Akna sends to this person again, by trigger or by campaign.
    const second = await createItem(d, 'momentum', [everyone, onPage('/dois'), dispatcher(CONTENT.AWS_SES!)]);
    const third = await createItem(d, 'momentum', [everyone, onPage('/dois'), dispatcher(CONTENT.AKNA!)]);
    await pageview(d, who.vid, '/dois');
    const campaign = await createItem(d, 'campaign', [everyone, dispatcher(CONTENT.AWS_SES!)]);
    await runCampaign(campaign);
    await dispatchAll();
    expect(receivedBy('AWS_SES', who)).toHaveLength(1);
    expect(receivedBy('AKNA', who)).toHaveLength(0);
    for (const m of [second, third, campaign])
      expect((await deliveriesOf(m))[0]).toMatchObject({
        status: 'skipped',
        error: 'O visitante cancelou o recebimento de e-mails.',
      });
    expect((await deliveriesOf(first))[0]!.status).toBe('sent');
  });

  it('an SMS opt-out attribute is honoured', async () => {
    const d = await domainWithChannels();
    const m = await createItem(d, 'momentum', [everyone, onPage('/optout'), dispatcher(CONTENT.ZENVIA!)]);
    const who = await identified(d, { sms_optout: true });
    await pageview(d, who.vid, '/optout');
    await dispatchAll();
    expect(receivedBy('ZENVIA', who)).toHaveLength(0);
    expect((await deliveriesOf(m))[0]).toMatchObject({
      status: 'skipped',
      error: 'O visitante pediu para não receber SMS.',
    });
  });
});

describe('frequency cap across channels', () => {
  const setCap = (d: Domain, day: number | null, week: number | null = null) =>
    call(
      t.app,
      'PUT',
      `/api/domain/frequency/${d.uuid}`,
      { domain: { frequency_cap_day: day, frequency_cap_week: week } },
      owner.token,
    );

  it('the setting is validated and belongs to the company', async () => {
    const d = await domainWithChannels();
    expect((await setCap(d, 0)).status).toBe(400);
    const bad = await call(
      t.app,
      'PUT',
      `/api/domain/frequency/${d.uuid}`,
      { domain: { frequency_cap_day: 'muitos' } },
      owner.token,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBeTruthy();
    expect((await setCap(d, 2, 5)).status).toBe(200);
    const read = await call(t.app, 'GET', `/api/domain/frequency/${d.uuid}`, undefined, owner.token);
    expect(read.body.data).toEqual({ frequency_cap_day: 2, frequency_cap_week: 5 });
    const stranger = await signUpAndSignIn(t.app);
    expect((await call(t.app, 'GET', `/api/domain/frequency/${d.uuid}`, undefined, stranger.token)).status).toBe(404);
    expect(
      (
        await call(
          t.app,
          'PUT',
          `/api/domain/frequency/${d.uuid}`,
          { domain: { frequency_cap_day: 1, frequency_cap_week: null } },
          stranger.token,
        )
      ).status,
    ).toBe(404);
  });

  it('over the cap: skipped without repeats, waits for the next allowed moment with them', async () => {
    const d = await domainWithChannels();
    expect((await setCap(d, 1)).status).toBe(200);
    const sms = await createItem(d, 'momentum', [everyone, onPage('/limite'), dispatcher(CONTENT.ZENVIA!)]);
    const email = await createItem(d, 'momentum', [everyone, onPage('/limite'), dispatcher(CONTENT.AWS_SES!)]);
    const withRepeats = await createItem(d, 'momentum', [
      everyone,
      onPage('/repetir'),
      dispatcher({ ...CONTENT.AKNA!, intervalRecurrency: [3600] }),
    ]);
    const who = await identified(d);
    await pageview(d, who.vid, '/limite');
    await dispatchAll();
    const statuses = [...(await deliveriesOf(sms)), ...(await deliveriesOf(email))];
    expect(statuses.map((r) => r.status).sort()).toEqual(['sent', 'skipped']);
    expect(statuses.find((r) => r.status === 'skipped')!.error).toBe('limite de frequência');
    expect(receivedBy('ZENVIA', who).length + receivedBy('AWS_SES', who).length).toBe(1);

    // The delivery log answers "why did this person not get it?".
    const skippedLog = await call(
      t.app,
      'GET',
      `/api/momentum/deliveries/${statuses[0]!.status === 'skipped' ? sms : email}?status=skipped`,
      undefined,
      owner.token,
    );
    expect(skippedLog.status).toBe(200);
    expect(skippedLog.body.data.items).toHaveLength(1);
    expect(skippedLog.body.data.items[0]).toMatchObject({ status: 'skipped', reason: 'limite de frequência' });

    await pageview(d, who.vid, '/repetir');
    await dispatchAll();
    const [waiting] = await deliveriesOf(withRepeats);
    expect(waiting).toMatchObject({ status: 'queued', error: 'limite de frequência' });
    const nextAt = new Date(waiting!.due_at).getTime();
    expect(nextAt - t.clock.now().getTime()).toBeGreaterThan(23 * 3600_000);
    expect(receivedBy('AKNA', who)).toHaveLength(0);
    t.clock.set(new Date(nextAt + 1000));
    await dispatchAll();
    expect(receivedBy('AKNA', who)).toHaveLength(1);
  });
});

describe.skipIf(inject('dbKind') !== 'postgres')('frequency cap under concurrency', () => {
  it('three workers sending to the same person at the same instant: the cap holds', async () => {
    const d = await domainWithChannels();
    expect(
      (
        await call(
          t.app,
          'PUT',
          `/api/domain/frequency/${d.uuid}`,
          { domain: { frequency_cap_day: 1, frequency_cap_week: null } },
          owner.token,
        )
      ).status,
    ).toBe(200);
    const items = [];
    for (const channel of ['ZENVIA', 'AWS_SES', 'AKNA'])
      items.push(await createItem(d, 'momentum', [everyone, onPage('/corrida'), dispatcher(CONTENT[channel]!)]));
    const crowd = [];
    for (let i = 0; i < 20; i++) crowd.push(await identified(d));
    // One collect for the whole crowd: every delivery has the same due time.
    await Promise.all(crowd.map((who) => pageview(d, who.vid, '/corrida')));
    // Three engines on one database, as worker processes would be; one delivery per claim, so the three
    // deliveries of one person are in flight in different workers at once.
    const adapters = () => [
      createZenviaAdapter({ baseUrl: zenvia.url }),
      createSesAdapter({ endpoint: ses.url }),
      createAknaAdapter({ baseUrl: akna.url }),
    ];
    const workers = [1, 2, 3].map(() => createEngine(t.app.ctx, { work: false, batchSize: 1, adapters: adapters() }));
    const drain = async (e: (typeof workers)[number]) => {
      while ((await e.dispatchDue()) > 0);
    };
    await Promise.all(workers.map(drain));
    for (const w of workers) await w.stop();
    for (const who of crowd) {
      const got = receivedBy('ZENVIA', who).length + receivedBy('AWS_SES', who).length + receivedBy('AKNA', who).length;
      expect(got, who.vid).toBe(1);
    }
    const rows = (await Promise.all(items.map(deliveriesOf))).flat();
    expect(rows.filter((r) => r.status === 'sent')).toHaveLength(crowd.length);
    expect(rows.filter((r) => r.status === 'skipped' && r.error === 'limite de frequência')).toHaveLength(
      crowd.length * 2,
    );
  });
});

describe('delivery log', () => {
  it('pages on the server, filters by status, masks recipients and stays within the company', async () => {
    const d = await domainWithChannels();
    const people = [];
    for (let i = 0; i < 3; i++) people.push(await identified(d));
    await collect(d, `anon-${randomUUID()}`, [{ t: 'pv', u: `${d.root}/` }]);
    const uuid = await createItem(d, 'campaign', [everyone, dispatcher(CONTENT.AWS_SES!)]);
    await runCampaign(uuid);
    await dispatchAll();
    const all = await call(t.app, 'GET', `/api/momentum/deliveries/${uuid}`, undefined, owner.token);
    expect(all.status).toBe(200);
    expect(all.body.data).toMatchObject({ total: 4, page: 1, page_size: 50 });
    const sent = await call(t.app, 'GET', `/api/momentum/deliveries/${uuid}?status=sent`, undefined, owner.token);
    expect(sent.body.data.total).toBe(3);
    for (const item of sent.body.data.items) {
      expect(item.recipient).toMatch(/^c\*\*\*\d@e\*\*\*o\.com\.br$/);
      expect(item.sent_at).toBeTruthy();
    }
    expect(JSON.stringify(sent.body)).not.toContain(people[0]!.email);
    const skipped = await call(t.app, 'GET', `/api/momentum/deliveries/${uuid}?status=skipped`, undefined, owner.token);
    expect(skipped.body.data.items).toEqual([
      expect.objectContaining({ status: 'skipped', reason: 'Visitante sem e-mail.' }),
    ]);
    expect(skipped.body.data.items[0].recipient).toMatch(/^anon-/);
    expect(
      (await call(t.app, 'GET', `/api/momentum/deliveries/${uuid}?status=talvez`, undefined, owner.token)).status,
    ).toBe(400);
    const stranger = await signUpAndSignIn(t.app);
    expect((await call(t.app, 'GET', `/api/momentum/deliveries/${uuid}`, undefined, stranger.token)).status).toBe(404);
    expect((await call(t.app, 'GET', '/api/momentum/deliveries/nao-e-uuid', undefined, owner.token)).status).toBe(404);
  });
});
