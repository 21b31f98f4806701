import { msg, type Profile, type Usage, type UserSession } from '@impeto/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  blocks,
  call,
  createDomain,
  createTestApp,
  outbox,
  signUpAndSignIn,
  solveCaptcha,
  type TestApp,
} from '../../../test/harness.ts';

const CHROME_WIN =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000 });
});
afterAll(() => t.close());

/** A second sign-in of `user` from another device; returns its token. */
async function signInAgain(user: { username: string; password: string }, ua = SAFARI_IPHONE) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/users/signin',
    headers: { 'content-type': 'application/json', 'user-agent': ua },
    payload: JSON.stringify({ user, captcha: await solveCaptcha(t.app) }),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.token as string;
}
const get = async <T>(url: string, token: string) => {
  const res = await call(t.app, 'GET', url, undefined, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as T;
};

describe('profile: name and e-mail', () => {
  it('shows and renames the user; a blank name is refused in pt-BR', async () => {
    const me = await signUpAndSignIn(t.app);
    expect(await get<Profile>('/api/profile', me.token)).toEqual({
      name: me.user.name,
      username: me.user.username,
      email: me.user.email,
      pending_email: null,
    });
    const renamed = await call(t.app, 'PUT', '/api/profile', { profile: { name: 'Maria Clara' } }, me.token);
    expect(renamed.status).toBe(200);
    expect(renamed.body.message).toBe(msg.profile.nameSaved);
    expect((await get<Profile>('/api/profile', me.token)).name).toBe('Maria Clara');
    const blank = await call(t.app, 'PUT', '/api/profile', { profile: { name: '   ' } }, me.token);
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe(msg.profile.nameRequired);
    expect((await call(t.app, 'GET', '/api/profile')).status).toBe(401);
  });

  it('changes the e-mail only when the link mailed to the new address is opened, by the same user, once', async () => {
    const me = await signUpAndSignIn(t.app);
    const other = await signUpAndSignIn(t.app);
    const taken = await call(
      t.app,
      'POST',
      '/api/profile/email',
      { profile: { email: other.user.email.toUpperCase() } },
      me.token,
    );
    expect(taken.status).toBe(409);
    expect(taken.body.fields['profile.email']).toBe(msg.signup.emailTaken);
    const same = await call(t.app, 'POST', '/api/profile/email', { profile: { email: me.user.email } }, me.token);
    expect(same.status).toBe(400);
    expect(same.body.message).toBe(msg.profile.emailSame);
    const bad = await call(t.app, 'POST', '/api/profile/email', { profile: { email: 'sem-arroba' } }, me.token);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(msg.profile.emailInvalid);

    const asked = await call(
      t.app,
      'POST',
      '/api/profile/email',
      { profile: { email: 'nova@exemplo.com.br' } },
      me.token,
    );
    expect(asked.status).toBe(200);
    expect(asked.body.message).toBe(msg.profile.emailSent);
    expect(asked.body.data).toMatchObject({ email: me.user.email, pending_email: 'nova@exemplo.com.br' });
    const mail = (await outbox(t.app)).filter((m) => m.to === 'nova@exemplo.com.br').at(-1)!;
    expect(mail.subject).toBe(msg.profile.emailSubject);
    const token = new URL(mail.links[0]!).searchParams.get('email_token')!;
    expect(new URL(mail.links[0]!).pathname).toBe('/profile');

    // Not yet in force; another user cannot use the link.
    expect((await get<Profile>('/api/profile', me.token)).email).toBe(me.user.email);
    const stolen = await call(t.app, 'PUT', '/api/profile/email', { profile: { token } }, other.token);
    expect(stolen.status).toBe(400);
    expect(stolen.body.message).toBe(msg.profile.emailTokenInvalid);

    const confirmed = await call(t.app, 'PUT', '/api/profile/email', { profile: { token } }, me.token);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.message).toBe(msg.profile.emailConfirmed);
    expect(confirmed.body.data).toMatchObject({ email: 'nova@exemplo.com.br', pending_email: null });
    const again = await call(t.app, 'PUT', '/api/profile/email', { profile: { token } }, me.token);
    expect(again.status).toBe(400);
    // Recovery now goes to the new address.
    await call(t.app, 'POST', '/api/users/signup', { user: { email: 'nova@exemplo.com.br' } });
    expect(
      (await outbox(t.app)).some((m) => m.to === 'nova@exemplo.com.br' && m.subject === msg.mail.resetSubject),
    ).toBe(true);
  });
});

describe('profile: password and sessions', () => {
  it('lists the sessions with device and last use, marks the current one, and ends another at once', async () => {
    const me = await signUpAndSignIn(t.app);
    const phone = await signInAgain(me.user);
    await signInAgain(me.user, CHROME_WIN);
    const list = await get<UserSession[]>('/api/profile/sessions', phone);
    expect(list).toHaveLength(3);
    const current = list.filter((s) => s.current);
    expect(current).toHaveLength(1);
    expect(current[0]).toMatchObject({ device: 'Safari 17 em iOS', mobile: true });
    expect(list.map((s) => s.device)).toContain('Chrome 130 em Windows');
    expect(list.every((s) => s.last_used_at !== null)).toBe(true);

    // The current session cannot end itself here (that is "Sair").
    const self = await call(t.app, 'DELETE', `/api/profile/sessions/${current[0]!.id}`, undefined, phone);
    expect(self.status).toBe(400);
    expect(self.body.message).toBe(msg.profile.currentSession);

    const first = list.find((s) => !s.current && s.device !== 'Chrome 130 em Windows')!;
    const ended = await call(t.app, 'DELETE', `/api/profile/sessions/${first.id}`, undefined, phone);
    expect(ended.status).toBe(200);
    expect(ended.body.message).toBe(msg.profile.sessionEnded);
    expect((await call(t.app, 'GET', '/api/profile', undefined, me.token)).status).toBe(401);
    expect(await get<UserSession[]>('/api/profile/sessions', phone)).toHaveLength(2);

    // Someone else's session id is not found, and stays alive.
    const stranger = await signUpAndSignIn(t.app);
    const theirs = (await get<UserSession[]>('/api/profile/sessions', stranger.token))[0]!;
    const cross = await call(t.app, 'DELETE', `/api/profile/sessions/${theirs.id}`, undefined, phone);
    expect(cross.status).toBe(404);
    expect((await call(t.app, 'GET', '/api/profile', undefined, stranger.token)).status).toBe(200);
    expect((await call(t.app, 'DELETE', '/api/profile/sessions/nao-e-uuid', undefined, phone)).status).toBe(400);

    const rest = await call(t.app, 'DELETE', '/api/profile/sessions', undefined, phone);
    expect(rest.body.message).toBe(msg.profile.otherSessionsEnded);
    expect(await get<UserSession[]>('/api/profile/sessions', phone)).toHaveLength(1);
  });

  it('keeps the last use to the minute', async () => {
    const me = await signUpAndSignIn(t.app);
    const [before] = await get<UserSession[]>('/api/profile/sessions', me.token);
    t.clock.advance(30_000);
    expect((await get<UserSession[]>('/api/profile/sessions', me.token))[0]!.last_used_at).toBe(before!.last_used_at);
    t.clock.advance(60_000);
    await get<Profile>('/api/profile', me.token);
    const [after] = await get<UserSession[]>('/api/profile/sessions', me.token);
    const step = Date.parse(after!.last_used_at!) - Date.parse(before!.last_used_at!);
    expect(step).toBeGreaterThanOrEqual(90_000);
    expect(step).toBeLessThan(95_000);
  });

  it('changes the password with the current one; every other session ends, this one stays', async () => {
    const me = await signUpAndSignIn(t.app);
    const other = await signInAgain(me.user);
    const body = (current: string, password: string, confirmation = password) => ({
      profile: { current_password: current, password, password_confirmation: confirmation },
    });
    const wrong = await call(
      t.app,
      'PUT',
      '/api/profile/password',
      body('errada', 'Outra frase bem longa 2026!'),
      me.token,
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.fields['profile.current_password']).toBe(msg.profile.currentPasswordWrong);
    const weak = await call(t.app, 'PUT', '/api/profile/password', body(me.user.password, '12345678'), me.token);
    expect(weak.status).toBe(400);
    expect(weak.body.message).toContain(msg.password.weak);
    const mismatch = await call(
      t.app,
      'PUT',
      '/api/profile/password',
      body(me.user.password, 'a-b-c-d-e-f-g', 'x'),
      me.token,
    );
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.fields['profile.password_confirmation']).toBe(msg.profile.passwordMismatch);
    expect((await call(t.app, 'GET', '/api/profile', undefined, other)).status).toBe(200);

    const changed = await call(
      t.app,
      'PUT',
      '/api/profile/password',
      body(me.user.password, 'Girassol azul na janela 77'),
      me.token,
    );
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.message).toBe(msg.profile.passwordChanged);
    expect((await call(t.app, 'GET', '/api/profile', undefined, other)).status).toBe(401);
    expect((await call(t.app, 'GET', '/api/profile', undefined, me.token)).status).toBe(200);
    await signInAgain({ username: me.user.username, password: 'Girassol azul na janela 77' });
    const old = await call(t.app, 'POST', '/api/users/signin', {
      user: { username: me.user.username, password: me.user.password },
      captcha: await solveCaptcha(t.app),
    });
    expect(old.status).toBe(401);
  });
});

describe('profile: password rules', () => {
  it("refuses the user's own name, the company's name and common Brazilian patterns; 201 characters get the length message", async () => {
    const me = await signUpAndSignIn(t.app);
    expect((await call(t.app, 'PUT', '/api/profile', { profile: { name: 'João Silva' } }, me.token)).status).toBe(200);
    const change = (password: string) =>
      call(
        t.app,
        'PUT',
        '/api/profile/password',
        { profile: { current_password: me.user.password, password, password_confirmation: password } },
        me.token,
      );
    for (const weak of ['JoaoSilva2026', 'Senha@123', `${me.company.name.replace(/\s/g, '')}!`]) {
      const res = await change(weak);
      expect(res.status, weak).toBe(400);
      expect(res.body.fields['profile.password'], weak).toMatch(new RegExp(`^${msg.password.weak}`));
    }
    const long = await change(`Girassol azul ${'na janela '.repeat(20)}`.slice(0, 201));
    expect(long.status).toBe(400);
    expect(long.body.message).toBe(msg.signup.passwordTooLong);
    expect(long.body.fields['profile.password']).toBe(msg.signup.passwordTooLong);
  });
});

describe('usage (/payment)', () => {
  it("counts this month's events, visitors and sent messages per domain of the caller's company only", async () => {
    t.clock.set('2026-03-10T15:00:00Z');
    const owner = await signUpAndSignIn(t.app);
    const stranger = await signUpAndSignIn(t.app);
    const shop = await createDomain(t.app, owner, 'Loja Uso', 'https://uso.example.com.br');
    const blog = await createDomain(t.app, owner, 'Blog Uso', 'https://blog-uso.example.com.br');
    const theirs = await createDomain(t.app, stranger, 'Loja Alheia', 'https://alheia.example.com.br');
    const created = await call(
      t.app,
      'POST',
      '/api/momentum/create',
      {
        domain_uuid: shop.uuid,
        type: 'momentum',
        momentum_title: 'Boas-vindas',
        status: 'Active',
        momentums: [blocks.everyone, blocks.pageviewContaining('/promo'), blocks.topbar()],
      },
      owner.token,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const collect = async (d: { gero_id: string }, origin: string, vid: string, events: object[]) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/collect',
        headers: { 'content-type': 'text/plain', origin, 'user-agent': CHROME_WIN },
        payload: JSON.stringify({ id: d.gero_id, vid, e: events }),
      });
      expect(res.statusCode).toBe(202);
      await t.app.ingestor.drain();
    };
    const shopUrl = 'https://uso.example.com.br';
    await collect(shop, shopUrl, 'ana', [
      { t: 'pv', u: `${shopUrl}/` },
      { t: 'pv', u: `${shopUrl}/promo` },
      { t: 'ev', c: 'busca' },
    ]);
    await collect(shop, shopUrl, 'bia', [{ t: 'pv', u: `${shopUrl}/promo` }]);
    // Later the same São Paulo day (a session lasts 12 hours).
    t.clock.set('2026-03-10T22:00:00Z');
    await collect(shop, shopUrl, 'ana', [{ t: 'pv', u: `${shopUrl}/` }]);
    await collect(theirs, 'https://alheia.example.com.br', 'zeca', [{ t: 'pv', u: 'https://alheia.example.com.br/' }]);
    while ((await t.app.engine.dispatchDue()) > 0);

    const usage = await get<Usage>('/api/usage', owner.token);
    expect(usage.plan).toBe('self_hosted');
    expect(usage.month).toBe('2026-03');
    expect(usage.domains.map((d) => d.name)).toEqual(['Blog Uso', 'Loja Uso']);
    const s = usage.domains.find((d) => d.domain_uuid === shop.uuid)!;
    expect(s).toMatchObject({ events: 5, pageviews: 4, visitors: 2, messages_total: 2 });
    expect(s.messages.SUPERARE_WEBVIEW).toBe(2);
    expect(s.messages.CELL_NOTIFICATION).toBe(0);
    expect(usage.domains.find((d) => d.domain_uuid === blog.uuid)).toMatchObject({ events: 0, visitors: 0 });

    expect((await get<Usage>('/api/usage?month=2026-02', owner.token)).domains[1]).toMatchObject({ events: 0 });
    const strangers = await get<Usage>('/api/usage', stranger.token);
    expect(strangers.domains.map((d) => d.name)).toEqual(['Loja Alheia']);
    const bad = await call(t.app, 'GET', '/api/usage?month=2026-13', undefined, owner.token);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(msg.usage.monthInvalid);
  });
});
