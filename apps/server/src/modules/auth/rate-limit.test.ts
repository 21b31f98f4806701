import { msg } from '@impeto/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 5 });
});
afterAll(() => t.close());

it('sign-in is rate limited per IP', async () => {
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

it('sign-in is rate limited per username across addresses', async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 7; i++) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/signin',
      remoteAddress: `10.0.0.${i + 1}`,
      headers: { 'content-type': 'application/json' },
      payload: { user: { username: 'Alvo', password: 'x' }, captcha: 'y' },
    });
    statuses.push(res.statusCode);
  }
  expect(statuses.slice(0, 5).every((s) => s === 400)).toBe(true);
  expect(statuses.slice(5)).toEqual([429, 429]);
});
