import { msg, SECRET_MASK } from '@impeto/shared';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDomain, removeDomain } from '../../../test/domain-fixture.ts';
import { createTestApp, call as rawCall, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';
import { channels } from '../../db/schema.ts';
import { readChannelCredentials } from './channels.service.ts';

let t: TestApp;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
let stranger: Awaited<ReturnType<typeof signUpAndSignIn>>;
let domainA: string;
let domainB: string;
let strangerDomain: string;

/** Every answer of this file, searched at the end for the secrets sent in. */
const answers: string[] = [];
const call = async (...args: Parameters<typeof rawCall>) => {
  const res = await rawCall(...args);
  answers.push(JSON.stringify(res.body ?? null));
  return res;
};

beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000 });
  owner = await signUpAndSignIn(t.app);
  stranger = await signUpAndSignIn(t.app);
  domainA = (await insertDomain(t.app, owner.company.uuid, 'Loja A')).uuid;
  domainB = (await insertDomain(t.app, owner.company.uuid, 'Loja B')).uuid;
  strangerDomain = (await insertDomain(t.app, stranger.company.uuid)).uuid;
});
afterAll(() => t.close());

const SECRETS = {
  zenviaLogin: 'zenvia-login-4821',
  zenviaPassword: 'zenvia-senha-S3cr3t!',
  sesKeyId: 'AKIAEXAMPLEKEY12345',
  sesSecret: 'ses/secret+access+key/9f8e7d6c5b4a',
  sesSecret2: 'ses-second-secret-abcdef123456',
  aknaUser: 'akna-usuario-771',
  aknaPassword: 'akna:senha:com:dois-pontos',
  aknaPassword2: 'akna-nova-senha-2',
  oneSignalToken: 'os-api-token-ZXCVBNM0987',
};
const basic = (login: string, password: string) => Buffer.from(`${login}:${password}`).toString('base64');

type Method = InjectOptions['method'];
const as = (who: typeof owner, method: Method, url: string, body?: unknown) =>
  call(t.app, method, url, body, who.token);
const create = (channel: Record<string, unknown>, who = owner) => as(who, 'POST', '/api/channel/create', { channel });
const update = (channel: Record<string, unknown>, who = owner) => as(who, 'PUT', '/api/channel/update', { channel });
const list = (domain: string, who = owner) => as(who, 'GET', `/api/domain/channels/${domain}`);
const stored = async (uuid: string) => (await t.app.ctx.db.select().from(channels).where(eq(channels.uuid, uuid)))[0]!;

describe('channels', () => {
  it('a new domain has no channels', async () => {
    const res = await list(domainA);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: msg.channel.listed, data: [] });
  });

  it('integrates Zenvia: token = base64(login:password), encrypted at rest, masked in every answer', async () => {
    const res = await create({
      domain_uuid: domainA,
      channel_type: 'ZENVIA',
      properties: { login: SECRETS.zenviaLogin, password: SECRETS.zenviaPassword, sender: 'Pão Quente' },
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Canal integrado com sucesso!');
    expect(res.body.data).toMatchObject({
      channel_type: 'ZENVIA',
      domain_uuid: domainA,
      active: true,
      properties: { sender: 'Pão Quente', token: SECRET_MASK },
    });
    expect(Date.parse(res.body.data.updated_at)).not.toBeNaN();

    const listed = await list(domainA);
    expect(listed.body.data).toEqual([res.body.data]);

    const row = await stored(res.body.data.uuid);
    expect(row.properties).toEqual({ sender: 'Pão Quente' });
    const token = basic(SECRETS.zenviaLogin, SECRETS.zenviaPassword);
    for (const plain of [token, SECRETS.zenviaLogin, SECRETS.zenviaPassword]) expect(row.secrets).not.toContain(plain);

    const creds = await readChannelCredentials(t.app.ctx, domainA, 'ZENVIA');
    expect(creds?.properties).toEqual({ sender: 'Pão Quente', token });
  });

  it('one channel per type per domain; the same type on another domain is fine', async () => {
    const again = await create({
      domain_uuid: domainA,
      channel_type: 'ZENVIA',
      properties: { login: 'outro', password: 'outra', sender: 'Outro' },
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Este canal já está integrado a este domínio.');
    expect((await list(domainA)).body.data).toHaveLength(1);
    const creds = await readChannelCredentials(t.app.ctx, domainA, 'ZENVIA');
    expect(creds?.properties.token).toBe(basic(SECRETS.zenviaLogin, SECRETS.zenviaPassword));

    const other = await create({
      domain_uuid: domainB,
      channel_type: 'ZENVIA',
      properties: { username: 'login-b', password: 'senha-b', sender: 'B' },
    });
    expect(other.status).toBe(200);
    expect((await readChannelCredentials(t.app.ctx, domainB, 'ZENVIA'))?.properties.token).toBe(
      basic('login-b', 'senha-b'),
    );
  });

  it.each([
    [
      'ONE_SIGNAL',
      {
        'channel.properties.oneSignalAppId': 'Provide your OneSignal APP ID',
        'channel.properties.oneSignalApiId': 'Provide your OneSignal API Token',
      },
    ],
    [
      'ZENVIA',
      {
        'channel.properties.login': 'Provide your Zenvia username',
        'channel.properties.password': 'Provide your Zenvia password',
        'channel.properties.sender': 'Provide your Zenvia sender name',
      },
    ],
    [
      'AWS_SES',
      {
        'channel.properties.accessKeyId': 'Provide your AmazonSES AccessKeyID',
        'channel.properties.secretAccessKey': 'Provide your AmazonSES Secret Access Key',
        'channel.properties.region': 'Provide your AmazonSES Region',
        'channel.properties.source': 'Provide your AmazonSES Source',
      },
    ],
    [
      'AKNA',
      {
        'channel.properties.username': 'Provide your Akna username',
        'channel.properties.password': 'Provide your Akna password',
        'channel.properties.client': 'Provide your Akna cliente code',
      },
    ],
  ])('%s without its fields answers each required message', async (channel_type, fields) => {
    for (const properties of [
      undefined,
      {},
      Object.fromEntries(Object.keys(fields).map((k) => [k.split('.').pop(), '  '])),
    ]) {
      const res = await create({ domain_uuid: domainB, channel_type, properties });
      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual(fields);
      expect(Object.values(fields)).toContain(res.body.message);
    }
    expect((await list(domainB)).body.data.map((c: { channel_type: string }) => c.channel_type)).toEqual(['ZENVIA']);
  });

  it('refuses an unknown channel type, a bad domain uuid and an SES region that is not one', async () => {
    const unknown = await create({ domain_uuid: domainA, channel_type: 'TELEGRAM', properties: {} });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe(msg.channel.typeInvalid);
    const badDomain = await create({ domain_uuid: 'x', channel_type: 'CELL_NOTIFICATION' });
    expect(badDomain.status).toBe(400);
    expect(badDomain.body.fields).toEqual({ 'channel.domain_uuid': msg.channel.domainRequired });
    const region = await create({
      domain_uuid: domainA,
      channel_type: 'AWS_SES',
      properties: { accessKeyId: 'a', secretAccessKey: 'b', region: 'Brasil', source: 'x@y.com' },
    });
    expect(region.status).toBe(400);
    expect(region.body.fields).toEqual({ 'channel.properties.region': msg.channel.sesRegionInvalid });
  });

  it('AWS SES: an edit with empty secrets keeps them, a new secret replaces only itself', async () => {
    const created = await create({
      domain_uuid: domainA,
      channel_type: 'AWS_SES',
      properties: {
        accessKeyId: SECRETS.sesKeyId,
        secretAccessKey: SECRETS.sesSecret,
        region: 'sa-east-1',
        source: 'Loja <loja@exemplo.com.br>',
      },
    });
    expect(created.status).toBe(200);
    expect(created.body.data.properties).toEqual({
      region: 'sa-east-1',
      source: 'Loja <loja@exemplo.com.br>',
      accessKeyId: SECRET_MASK,
      secretAccessKey: SECRET_MASK,
    });
    const uuid = created.body.data.uuid;

    const kept = await update({
      uuid,
      domain_uuid: domainA,
      channel_type: 'AWS_SES',
      properties: { accessKeyId: '', secretAccessKey: SECRET_MASK, region: 'us-east-1', source: 'nova@exemplo.com.br' },
    });
    expect(kept.status).toBe(200);
    expect(kept.body.message).toBe('Canal atualizado com sucesso!');
    expect(kept.body.data.properties).toMatchObject({ region: 'us-east-1', secretAccessKey: SECRET_MASK });
    expect((await readChannelCredentials(t.app.ctx, domainA, 'AWS_SES'))?.properties).toEqual({
      accessKeyId: SECRETS.sesKeyId,
      secretAccessKey: SECRETS.sesSecret,
      region: 'us-east-1',
      source: 'nova@exemplo.com.br',
    });

    await update({
      uuid,
      domain_uuid: domainA,
      channel_type: 'AWS_SES',
      properties: { secretAccessKey: SECRETS.sesSecret2, region: 'us-east-1', source: 'nova@exemplo.com.br' },
    });
    const creds = (await readChannelCredentials(t.app.ctx, domainA, 'AWS_SES'))?.properties;
    expect(creds).toMatchObject({ accessKeyId: SECRETS.sesKeyId, secretAccessKey: SECRETS.sesSecret2 });
    const row = await stored(uuid);
    for (const plain of [SECRETS.sesKeyId, SECRETS.sesSecret2]) expect(row.secrets).not.toContain(plain);

    const missing = await update({ uuid, domain_uuid: domainA, channel_type: 'AWS_SES', properties: { region: '' } });
    expect(missing.status).toBe(400);
    expect(missing.body.fields).toEqual({
      'channel.properties.region': 'Provide your AmazonSES Region',
      'channel.properties.source': 'Provide your AmazonSES Source',
    });
  });

  it('Akna: login is the alias of username; an edit with only a new password keeps the login', async () => {
    const created = await create({
      domain_uuid: domainA,
      channel_type: 'AKNA',
      properties: { login: SECRETS.aknaUser, password: SECRETS.aknaPassword, client: 'CLI-42' },
    });
    expect(created.status).toBe(200);
    expect(created.body.data.properties).toEqual({ client: 'CLI-42', token: SECRET_MASK });
    expect((await readChannelCredentials(t.app.ctx, domainA, 'AKNA'))?.properties.token).toBe(
      basic(SECRETS.aknaUser, SECRETS.aknaPassword),
    );
    const edited = await update({
      uuid: created.body.data.uuid,
      domain_uuid: domainA,
      channel_type: 'AKNA',
      properties: { username: '', password: SECRETS.aknaPassword2, client: 'CLI-43' },
    });
    expect(edited.status).toBe(200);
    expect((await readChannelCredentials(t.app.ctx, domainA, 'AKNA'))?.properties).toEqual({
      client: 'CLI-43',
      token: basic(SECRETS.aknaUser, SECRETS.aknaPassword2),
    });
    const colon = await create({
      domain_uuid: domainB,
      channel_type: 'AKNA',
      properties: { username: 'a:b', password: 'x', client: 'c' },
    });
    expect(colon.body.fields).toEqual({ 'channel.properties.username': msg.channel.loginColon });
  });

  it('OneSignal is accepted by the API and editable', async () => {
    const created = await create({
      domain_uuid: domainA,
      channel_type: 'ONE_SIGNAL',
      properties: { oneSignalAppId: 'app-123', oneSignalApiId: SECRETS.oneSignalToken },
    });
    expect(created.status).toBe(200);
    expect(created.body.data.properties).toEqual({ oneSignalAppId: 'app-123', oneSignalApiId: SECRET_MASK });
    const edited = await update({
      uuid: created.body.data.uuid,
      domain_uuid: domainA,
      channel_type: 'ONE_SIGNAL',
      properties: { oneSignalAppId: 'app-456' },
    });
    expect(edited.status).toBe(200);
    expect((await readChannelCredentials(t.app.ctx, domainA, 'ONE_SIGNAL'))?.properties).toEqual({
      oneSignalAppId: 'app-456',
      oneSignalApiId: SECRETS.oneSignalToken,
    });
  });

  it('the push channel and the web view integrate with no properties and cannot be edited', async () => {
    const push = await create({ domain_uuid: domainA, channel_type: 'CELL_NOTIFICATION' });
    expect(push.status).toBe(200);
    expect(push.body.message).toBe('Canal integrado com sucesso!');
    expect(push.body.data.properties).toEqual({});
    const webview = await create({ domain_uuid: domainA, channel_type: 'SUPERARE_WEBVIEW', properties: {} });
    expect(webview.status).toBe(200);
    for (const c of [push.body.data, webview.body.data]) {
      const res = await update({ uuid: c.uuid, domain_uuid: domainA, channel_type: c.channel_type, properties: {} });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('Este canal não pode ser editado.');
    }
  });

  it('SUPERARE_NOTIFICATION answers its app settings in data', async () => {
    const res = await create({ domain_uuid: domainB, channel_type: 'SUPERARE_NOTIFICATION' });
    expect(res.status).toBe(200);
    const domain = (await t.app.ctx.db.query.domains.findFirst({ where: (d, { eq }) => eq(d.uuid, domainB) }))!;
    expect(res.body.data).toMatchObject({
      domain: domain.domain,
      welcome_title: msg.channel.welcomeTitle,
      notificationsEnabled: true,
      client_id: owner.company.uuid,
      chrome_app_id: '',
    });
    expect(res.body.data.appToken).toMatch(/^[0-9a-f-]{36}$/);
    const listed = (await list(domainB)).body.data.find(
      (c: { channel_type: string }) => c.channel_type === 'SUPERARE_NOTIFICATION',
    );
    expect(listed.properties.appToken).toBe(res.body.data.appToken);
  });

  it('an edit cannot change the type, and needs the channel own domain', async () => {
    const zenvia = (await list(domainA)).body.data.find((c: { channel_type: string }) => c.channel_type === 'ZENVIA');
    const typeChange = await update({
      uuid: zenvia.uuid,
      domain_uuid: domainA,
      channel_type: 'AKNA',
      properties: { client: 'x' },
    });
    expect(typeChange.status).toBe(409);
    expect(typeChange.body.message).toBe(msg.channel.typeChanged);
    const otherDomain = await update({
      uuid: zenvia.uuid,
      domain_uuid: domainB,
      channel_type: 'ZENVIA',
      properties: { sender: 'x' },
    });
    expect(otherDomain.status).toBe(404);
    expect(otherDomain.body.message).toBe(msg.channel.notFound);
  });

  it("another company's domain or channel answers 404 and nothing changes", async () => {
    expect((await list(domainA, stranger)).status).toBe(404);
    expect((await list('nao-e-uuid', stranger)).status).toBe(404);
    const created = await create({ domain_uuid: domainA, channel_type: 'SUPERARE_NOTIFICATION' }, stranger);
    expect(created.status).toBe(404);
    const zenvia = (await list(domainA)).body.data.find((c: { channel_type: string }) => c.channel_type === 'ZENVIA');
    const hijack = await update(
      {
        uuid: zenvia.uuid,
        domain_uuid: domainA,
        channel_type: 'ZENVIA',
        properties: { login: 'x', password: 'y', sender: 'Hacker' },
      },
      stranger,
    );
    expect(hijack.status).toBe(404);
    expect((await readChannelCredentials(t.app.ctx, domainA, 'ZENVIA'))?.properties).toEqual({
      sender: 'Pão Quente',
      token: basic(SECRETS.zenviaLogin, SECRETS.zenviaPassword),
    });
    expect((await list(domainA)).body.data.map((c: { channel_type: string }) => c.channel_type)).not.toContain(
      'SUPERARE_NOTIFICATION',
    );
    expect((await list(strangerDomain, stranger)).body.data).toEqual([]);
  });

  it('a removed domain has no channels to list or add, and the engine no longer reads them', async () => {
    const gone = (await insertDomain(t.app, owner.company.uuid)).uuid;
    await create({ domain_uuid: gone, channel_type: 'CELL_NOTIFICATION' });
    await removeDomain(t.app, gone);
    expect((await list(gone)).status).toBe(404);
    expect((await create({ domain_uuid: gone, channel_type: 'SUPERARE_WEBVIEW' })).status).toBe(404);
    expect(await readChannelCredentials(t.app.ctx, gone, 'CELL_NOTIFICATION')).toBeUndefined();
  });

  it('needs a session', async () => {
    expect((await rawCall(t.app, 'GET', `/api/domain/channels/${domainA}`)).status).toBe(401);
  });

  it('no answer of this file ever carried a credential', () => {
    const plain = [
      ...Object.values(SECRETS),
      basic(SECRETS.zenviaLogin, SECRETS.zenviaPassword),
      basic(SECRETS.aknaUser, SECRETS.aknaPassword),
      basic(SECRETS.aknaUser, SECRETS.aknaPassword2),
    ];
    expect(answers.length).toBeGreaterThan(20);
    for (const body of answers) for (const secret of plain) expect(body).not.toContain(secret);
  });
});
