import { msg, sealEnvelope } from '@impeto/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, outbox, signUpAndSignIn, solveCaptcha, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000 });
});
afterAll(() => t.close());

const signinBody = async (username: string, password: string, extra: Record<string, unknown> = {}) => ({
  user: { username, password },
  captcha: await solveCaptcha(t.app),
  ...extra,
});

describe('sign-up, validation, sign-in and logout', () => {
  it('a new company signs up, validates its e-mail, signs in and signs out', async () => {
    const company = await call(t.app, 'POST', '/api/company/create', { company: { name: 'Padaria Pão Quente' } });
    expect(company.status).toBe(200);
    expect(company.body.data.company).toMatchObject({ name: 'Padaria Pão Quente' });
    const user = {
      company_uuid: company.body.data.company.uuid,
      name: 'João da Silva',
      username: 'joao.silva',
      email: 'joao@paoquente.com.br',
      password: 'pao-quente-2026',
      password_confirmation: 'pao-quente-2026',
    };
    const signup = await call(t.app, 'POST', '/api/users/signup', { user });
    expect(signup.status).toBe(200);
    expect(signup.body.message).toBe('User has been created');

    const before = await call(t.app, 'POST', '/api/users/signin', await signinBody('joao.silva', user.password));
    expect(before.status).toBe(403);
    expect(before.body.message).toBe(msg.signin.notValidated);

    const mail = (await outbox(t.app)).find((m) => m.to === user.email)!;
    expect(mail.subject).toBe(msg.mail.validateSubject);
    const link = new URL(mail.links[0]!);
    expect(link.pathname).toBe('/validate');
    const cid = link.searchParams.get('cid');
    const validated = await call(t.app, 'PUT', '/api/users/validate', { user: { cid } });
    expect(validated.status).toBe(200);
    const again = await call(t.app, 'PUT', '/api/users/validate', { user: { cid } });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('Erro ao validar conta!');

    const signin = await call(t.app, 'POST', '/api/users/signin', await signinBody('JOAO.SILVA', user.password));
    expect(signin.status).toBe(200);
    const data = signin.body.data;
    expect(data).toMatchObject({ name: 'João da Silva', username: 'joao.silva', company_uuid: user.company_uuid });
    expect(data.token).toMatch(/^[\w-]{43}$/);
    expect(data.role.modules.map((m: { name: string }) => m.name)).toContain('domains');
    const hours = (Date.parse(data.cookie.expires) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(11.9);
    expect(hours).toBeLessThanOrEqual(12);

    const list = await call(t.app, 'GET', `/api/domain/list/${user.company_uuid}`, undefined, data.token);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([]);

    expect((await call(t.app, 'POST', '/api/users/logout', undefined, data.token)).status).toBe(200);
    const after = await call(t.app, 'GET', `/api/domain/list/${user.company_uuid}`, undefined, data.token);
    expect(after.status).toBe(401);
    expect(after.body.message).toBe(msg.common.unauthorized);
  });

  it('keep connected gives a 30-day session', async () => {
    const { signin } = await signUpAndSignIn(t.app, { keep: true });
    const days = (Date.parse(signin.body.data.cookie.expires) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
  });

  it('an expired session answers 401', async () => {
    const { token, company } = await signUpAndSignIn(t.app);
    expect((await call(t.app, 'GET', `/api/domain/list/${company.uuid}`, undefined, token)).status).toBe(200);
    t.clock.advance(12 * 3_600_000 + 1000);
    try {
      expect((await call(t.app, 'GET', `/api/domain/list/${company.uuid}`, undefined, token)).status).toBe(401);
    } finally {
      t.clock.advance(-(12 * 3_600_000 + 1000));
    }
  });

  it('a private route without a token, or with a forged one, answers 401', async () => {
    const { company } = await signUpAndSignIn(t.app);
    expect((await call(t.app, 'GET', `/api/domain/list/${company.uuid}`)).status).toBe(401);
    expect((await call(t.app, 'GET', `/api/domain/list/${company.uuid}`, undefined, 'x'.repeat(43))).status).toBe(401);
    expect((await call(t.app, 'POST', '/api/users/logout')).status).toBe(401);
  });

  it("another company's domain list answers 404", async () => {
    const a = await signUpAndSignIn(t.app);
    const b = await signUpAndSignIn(t.app);
    const res = await call(t.app, 'GET', `/api/domain/list/${b.company.uuid}`, undefined, a.token);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
  });
});

describe('required fields and bad input', () => {
  it('sign-in names each missing field with the spec message', async () => {
    const cases: [unknown, string][] = [
      [{ user: { username: '', password: 'x' }, captcha: 'y' }, 'Informe seu nome de usuário'],
      [{ user: { username: 'a', password: '' }, captcha: 'y' }, 'Informe sua senha'],
      [{ user: { username: 'a', password: 'x' } }, 'O campo reCAPTCHA é obrigatório!'],
      [{ user: { username: 'a', password: 'x' }, captcha: '' }, 'O campo reCAPTCHA é obrigatório!'],
    ];
    for (const [body, message] of cases) {
      const res = await call(t.app, 'POST', '/api/users/signin', body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    }
  });

  it('company creation requires a name', async () => {
    for (const body of [{ company: { name: '' } }, { company: { name: '   ' } }, { company: {} }]) {
      const res = await call(t.app, 'POST', '/api/company/create', body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Provide a company name');
      expect(res.body.fields['company.name']).toBe('Provide a company name');
    }
  });

  it('user sign-up names each missing field, and refuses a different confirmation', async () => {
    const company = (await call(t.app, 'POST', '/api/company/create', { company: { name: 'Loja Campos' } })).body.data
      .company;
    const full = {
      company_uuid: company.uuid,
      name: 'Ana',
      username: 'ana.campos',
      email: 'ana@campos.com.br',
      password: 'senha-da-ana-1',
      password_confirmation: 'senha-da-ana-1',
    };
    const expected: Record<string, string> = {
      name: 'Provide your fullname',
      username: 'Provide a username',
      email: 'Provide a valid e-mail address',
      password: 'Provide a password for your account',
      password_confirmation: 'Please, provide the same password again',
    };
    for (const [field, message] of Object.entries(expected)) {
      const res = await call(t.app, 'POST', '/api/users/signup', { user: { ...full, [field]: '' } });
      expect(res.status, field).toBe(400);
      expect(res.body.fields[`user.${field}`], field).toBe(message);
    }
    const bad = await call(t.app, 'POST', '/api/users/signup', { user: { ...full, email: 'não-é-email' } });
    expect(bad.body.fields['user.email']).toBe('Provide a valid e-mail address');
    const mismatch = await call(t.app, 'POST', '/api/users/signup', {
      user: { ...full, password_confirmation: 'outra-senha-1' },
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.message).toBe('Please, provide the same password again');
    expect((await call(t.app, 'POST', '/api/users/signup', { user: full })).status).toBe(200);
  });

  it('recovery requires an e-mail', async () => {
    const res = await call(t.app, 'POST', '/api/users/signup', { user: { email: '' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Provide your email');
  });

  it('a taken username is refused with a clear message, case-insensitively', async () => {
    const { user } = await signUpAndSignIn(t.app);
    const company = (await call(t.app, 'POST', '/api/company/create', { company: { name: 'Outra' } })).body.data
      .company;
    const dupUser = await call(t.app, 'POST', '/api/users/signup', {
      user: {
        company_uuid: company.uuid,
        name: 'Outro',
        username: user.username.toUpperCase(),
        email: 'novo@exemplo.com.br',
        password: 'senha-forte-9',
        password_confirmation: 'senha-forte-9',
      },
    });
    expect(dupUser.status).toBe(409);
    expect(dupUser.body.message).toBe('Este nome de usuário já está em uso.');
  });

  it('an existing e-mail is answered like a new one: nothing changes, and its owner is told by e-mail', async () => {
    const owner = await signUpAndSignIn(t.app);
    const attempt = async (email: string, tag: string) => {
      const company = (await call(t.app, 'POST', '/api/company/create', { company: { name: `Loja ${tag}` } })).body.data
        .company;
      const user = {
        company_uuid: company.uuid,
        name: 'Fulano de Tal',
        username: `fulano.${tag}`,
        email,
        password: 'girassol-azul-77',
        password_confirmation: 'girassol-azul-77',
      };
      const res = await call(t.app, 'POST', '/api/users/signup', { user });
      return { res, company, user };
    };
    const fresh = await attempt(`fulano.${Date.now()}@exemplo.com.br`, `a${Date.now()}`);
    const taken = await attempt(owner.user.email.toUpperCase(), `b${Date.now()}`);
    expect(taken.res.status).toBe(fresh.res.status);
    expect(fresh.res.status).toBe(200);
    const shape = (body: { message: string; data: { user: Record<string, unknown>; confirmation: string } }) => ({
      ...body,
      data: { ...body.data, user: Object.keys(body.data.user).sort() },
    });
    expect(shape(taken.res.body)).toEqual(shape(fresh.res.body));
    expect(taken.res.body.data.user).toMatchObject({ username: taken.user.username, email: taken.user.email });
    expect(taken.res.body.data.user.uuid).toMatch(/^[0-9a-f-]{36}$/);

    // No account was made with that username, and the owner's account is as it was.
    const signinAs = async (username: string, password: string) =>
      (await call(t.app, 'POST', '/api/users/signin', await signinBody(username, password))).status;
    expect(await signinAs(taken.user.username, taken.user.password)).toBe(401);
    expect(await signinAs(owner.user.username, owner.user.password)).toBe(200);
    expect(await signinAs(owner.user.username, taken.user.password)).toBe(401);
    // The attempt's company step is closed as after a real sign-up.
    const again = await call(t.app, 'POST', '/api/users/signup', {
      user: { ...taken.user, username: `outro.${Date.now()}`, email: `outro.${Date.now()}@exemplo.com.br` },
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('COMPANY_FINISHED');

    const mails = (await outbox(t.app)).filter((m) => m.to.toLowerCase() === owner.user.email.toLowerCase());
    const notice = mails.find((m) => m.subject === msg.mail.signupAttemptSubject);
    expect(notice, JSON.stringify(mails.map((m) => m.subject))).toBeDefined();
    expect(notice!.links.map((l) => new URL(l).pathname).sort()).toEqual(['/recovery', '/signin']);
    expect(mails.filter((m) => m.subject === msg.mail.validateSubject)).toHaveLength(1);
    expect((await outbox(t.app)).some((m) => m.to === taken.user.email && m.subject === msg.mail.validateSubject)).toBe(
      false,
    );
  });

  it("a finished company's sign-up step cannot add a second user", async () => {
    const { company } = await signUpAndSignIn(t.app);
    const res = await call(t.app, 'POST', '/api/users/signup', {
      user: {
        company_uuid: company.uuid,
        name: 'Intruso',
        username: 'intruso',
        email: 'intruso@exemplo.com',
        password: 'senha-forte-7',
        password_confirmation: 'senha-forte-7',
      },
    });
    expect(res.status).toBe(409);
  });

  it('answers invalid JSON, wrong content types and unknown routes in pt_BR, never 500', async () => {
    const invalid = await t.app.inject({
      method: 'POST',
      url: '/api/users/signin',
      headers: { 'content-type': 'application/json' },
      payload: '{"user":',
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toEqual({ message: msg.common.invalidJson, code: 'INVALID_JSON' });
    const xml = await t.app.inject({
      method: 'POST',
      url: '/api/users/signin',
      headers: { 'content-type': 'text/xml' },
      payload: '<a/>',
    });
    expect(xml.statusCode).toBe(415);
    expect(xml.json().message).toBe(msg.common.unsupportedMediaType);
    const unknown = await call(t.app, 'GET', '/api/nao-existe');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(msg.common.routeNotFound);
    const arrayBody = await call(t.app, 'POST', '/api/users/signin', [1, 2]);
    expect(arrayBody.status).toBe(400);
  });
});

describe('sign-in refusals', () => {
  it('wrong password and unknown user get the same answer', async () => {
    const { user } = await signUpAndSignIn(t.app);
    const wrong = await call(t.app, 'POST', '/api/users/signin', await signinBody(user.username, 'senha-errada-1'));
    const unknown = await call(t.app, 'POST', '/api/users/signin', await signinBody('ninguem.aqui', 'senha-errada-1'));
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.message).toBe(msg.signin.wrongCredentials);
  });

  it('a forged, garbled or reused captcha is refused', async () => {
    const { user } = await signUpAndSignIn(t.app);
    const garbled = await call(t.app, 'POST', '/api/users/signin', {
      user: { username: user.username, password: user.password },
      captcha: 'abc',
    });
    expect(garbled.status).toBe(400);
    expect(garbled.body.message).toBe(msg.signin.captchaInvalid);

    const payload = JSON.parse(Buffer.from(await solveCaptcha(t.app), 'base64').toString());
    payload.solution.derivedKey = '00'.repeat(32);
    const forged = await call(t.app, 'POST', '/api/users/signin', {
      user: { username: user.username, password: user.password },
      captcha: Buffer.from(JSON.stringify(payload)).toString('base64'),
    });
    expect(forged.status).toBe(400);

    const captcha = await solveCaptcha(t.app);
    const body = { user: { username: user.username, password: user.password }, captcha };
    expect((await call(t.app, 'POST', '/api/users/signin', body)).status).toBe(200);
    const replay = await call(t.app, 'POST', '/api/users/signin', body);
    expect(replay.status).toBe(400);
    expect(replay.body.message).toBe(msg.signin.captchaInvalid);
  });
});

describe('unfinished company', () => {
  it('can be removed before its user exists, and not after', async () => {
    const company = (await call(t.app, 'POST', '/api/company/create', { company: { name: 'Temporária' } })).body.data
      .company;
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/company/notfinished/${company.uuid}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(removed.statusCode).toBe(200);
    expect((await call(t.app, 'DELETE', `/api/company/notfinished/${company.uuid}`)).status).toBe(404);

    const finished = await signUpAndSignIn(t.app);
    const refused = await call(t.app, 'DELETE', `/api/company/notfinished/${finished.company.uuid}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(msg.signup.companyHasUsers);
  });

  it('the company step also answers on /users/signup', async () => {
    const res = await call(t.app, 'POST', '/api/users/signup', { company: { name: 'Via signup' } });
    expect(res.status).toBe(200);
    expect(res.body.data.company.name).toBe('Via signup');
  });
});

describe('password recovery', () => {
  it('answers the same for known and unknown e-mails, and the link sets a new password and ends old sessions', async () => {
    const { user, token, company } = await signUpAndSignIn(t.app);
    const known = await call(t.app, 'POST', '/api/users/signup', { user: { email: user.email } });
    const unknown = await call(t.app, 'POST', '/api/users/signup', { user: { email: 'nao.existe@exemplo.com' } });
    expect(known.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    await new Promise((r) => setTimeout(r, 50));
    const mails = await outbox(t.app);
    expect(mails.some((m) => m.to === 'nao.existe@exemplo.com')).toBe(false);
    const reset = mails.find((m) => m.to === user.email && m.subject === msg.mail.resetSubject)!;
    const resetToken = new URL(reset.links[0]!).searchParams.get('token');
    expect(new URL(reset.links[0]!).pathname).toBe('/recovery/reset');

    const changed = await call(t.app, 'PUT', '/api/users/password', {
      user: { token: resetToken, password: 'nova-senha-456', password_confirmation: 'nova-senha-456' },
    });
    expect(changed.status).toBe(200);
    expect((await call(t.app, 'GET', `/api/domain/list/${company.uuid}`, undefined, token)).status).toBe(401);
    const reused = await call(t.app, 'PUT', '/api/users/password', {
      user: { token: resetToken, password: 'outra-senha-789', password_confirmation: 'outra-senha-789' },
    });
    expect(reused.status).toBe(400);
    expect(reused.body.message).toBe(msg.recovery.tokenInvalid);
    expect(
      (await call(t.app, 'POST', '/api/users/signin', await signinBody(user.username, user.password))).status,
    ).toBe(401);
    expect(
      (await call(t.app, 'POST', '/api/users/signin', await signinBody(user.username, 'nova-senha-456'))).status,
    ).toBe(200);
  });
});

describe('request envelope', () => {
  it('opens a sealed body, and refuses a tampered or unknown-key envelope', async () => {
    const key = (await call(t.app, 'GET', '/api/envelope/key')).body.data;
    const sealed = await sealEnvelope(key, { company: { name: 'Selada' } });
    const res = await call(t.app, 'POST', '/api/company/create', sealed);
    expect(res.status).toBe(200);
    expect(res.body.data.company.name).toBe('Selada');

    const tampered = { ...sealed, ed: `${sealed.ed.slice(0, -4)}AAAA` };
    const bad = await call(t.app, 'POST', '/api/company/create', tampered);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('ENVELOPE_INVALID');

    const other = await call(t.app, 'POST', '/api/company/create', { ...sealed, _pid: 'outra-chave' });
    expect(other.status).toBe(400);
    expect(other.body.code).toBe('ENVELOPE_UNKNOWN_KEY');
  });
});
