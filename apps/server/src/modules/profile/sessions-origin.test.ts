import type { UserSession } from '@impeto/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, signUpAndSignIn, solveCaptcha, type TestApp } from '../../../test/harness.ts';

/**
 * Issue #29: every sign-in added another identical 'Chrome em Linux' row to /profile. Each session now carries when
 * it signed in, its last use and where from (address and place), so two sessions of one browser can be told apart.
 */
let t: TestApp;
let me: Awaited<ReturnType<typeof signUpAndSignIn>>;
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000, trustedGeoHeaders: 'cloudflare' });
  me = await signUpAndSignIn(t.app);
});
afterAll(() => t.close());

async function signInFrom(remoteAddress: string, place: Record<string, string>) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/users/signin',
    remoteAddress,
    headers: { 'content-type': 'application/json', 'user-agent': CHROME, ...place },
    payload: JSON.stringify({
      user: { username: me.user.username, password: me.user.password },
      captcha: await solveCaptcha(t.app),
      keep_connected: true,
    }),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.token as string;
}

describe('sessions on /profile', () => {
  it('tell two sign-ins of the same browser apart by time and origin, and mark the current one', async () => {
    t.clock.set('2026-11-20T12:00:00Z');
    await signInFrom('177.12.34.56', { 'cf-ipcity': 'S%C3%A3o%20Paulo', 'cf-region': 'SP', 'cf-ipcountry': 'BR' });
    t.clock.set('2026-11-25T18:30:00Z');
    const token = await signInFrom('200.1.2.3', { 'cf-ipcity': 'Recife', 'cf-region': 'PE', 'cf-ipcountry': 'BR' });
    const res = await call(t.app, 'GET', '/api/profile/sessions', undefined, token);
    expect(res.status).toBe(200);
    const chrome = (res.body.data as UserSession[]).filter((s) => s.device.startsWith('Chrome'));
    expect(chrome).toHaveLength(2);
    const byIp = Object.fromEntries(chrome.map((s) => [s.ip, s]));
    expect(byIp['200.1.2.3']).toMatchObject({ location: 'Recife, PE, BR', current: true });
    expect(byIp['200.1.2.3']!.created_at.slice(0, 16)).toBe('2026-11-25T18:30');
    expect(byIp['177.12.34.56']).toMatchObject({ location: 'São Paulo, SP, BR', current: false });
    expect(byIp['177.12.34.56']!.created_at.slice(0, 16)).toBe('2026-11-20T12:00');
    expect(chrome[0]!.device).toBe(chrome[1]!.device);
  });
});
