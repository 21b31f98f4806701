import { msg } from '@impeto/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, createTestApp, signUpAndSignIn, solveCaptcha, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 5 });
});
afterAll(() => t.close());

const signinFrom = async (remoteAddress: string, user: { username: string; password: string }, captcha: string) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/users/signin',
    remoteAddress,
    headers: { 'content-type': 'application/json' },
    payload: { user, captcha },
  });
  return { status: res.statusCode, body: res.json() };
};

it('sign-in is rate limited per IP, whatever the captcha', async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 7; i++) {
    const res = await call(t.app, 'POST', '/api/users/signin', {
      user: { username: `u${i}`, password: 'x' },
      captcha: 'y',
    });
    statuses.push(res.status);
    if (res.status === 429) expect(res.body.message).toBe(msg.common.tooManyRequests);
  }
  expect(statuses.slice(0, 5).every((s) => s === 400)).toBe(true);
  expect(statuses.slice(5)).toEqual([429, 429]);
});

it('requests with a garbage captcha do not lock the username: its owner still signs in', async () => {
  const { user } = await signUpAndSignIn(t.app);
  const statuses: number[] = [];
  for (let i = 0; i < 12; i++) {
    const res = await signinFrom(`10.1.0.${i + 1}`, { username: user.username, password: 'chute' }, 'lixo');
    statuses.push(res.status);
  }
  expect(statuses).toEqual(Array(12).fill(400));
  const real = await signinFrom(
    '10.1.1.1',
    { username: user.username, password: user.password },
    await solveCaptcha(t.app),
  );
  expect(real.status).toBe(200);
  expect(real.body.data.username).toBe(user.username);
});

it('failed attempts that passed the captcha lock the username across addresses', async () => {
  const { user } = await signUpAndSignIn(t.app);
  const statuses: number[] = [];
  for (let i = 0; i < 7; i++) {
    const res = await signinFrom(
      `10.2.0.${i + 1}`,
      { username: user.username.toUpperCase(), password: 'senha-errada' },
      await solveCaptcha(t.app),
    );
    statuses.push(res.status);
  }
  expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
  const locked = await signinFrom(
    '10.2.1.1',
    { username: user.username, password: user.password },
    await solveCaptcha(t.app),
  );
  expect(locked.status).toBe(429);
  expect(locked.body.message).toBe(msg.common.tooManyRequests);
});
