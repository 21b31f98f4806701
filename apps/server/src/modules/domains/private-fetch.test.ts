import { msg, serviceWorkerFile, trackingSnippet } from '@impeto/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';
import { startTestSite } from '../../../test/test-site.ts';
import { isPrivateAddress, safeFetchText } from '../../lib/safe-fetch.ts';

let t: TestApp;
let site: Awaited<ReturnType<typeof startTestSite>>;
beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000, allowPrivateFetch: false });
  site = await startTestSite();
});
afterAll(async () => {
  await site.close();
  await t.close();
});

it('without ALLOW_PRIVATE_FETCH, local addresses are refused as domains and never fetched', async () => {
  const owner = await signUpAndSignIn(t.app);
  const res = await call(
    t.app,
    'POST',
    '/api/domain/create',
    { domain: { company_uuid: owner.company.uuid, name: 'Local', domain: site.url } },
    owner.token,
  );
  expect(res.status).toBe(400);
  expect(res.body.message).toBe(msg.domain.urlInvalid);
});

it('the safe fetch refuses private, loopback and link-local addresses, directly and by redirect', async () => {
  const publicUrl = 'http://127.0.0.1:9';
  site.set('/', trackingSnippet({ publicUrl, root: site.url, geroId: 'G-1' }));
  await expect(safeFetchText(`${site.url}/`, { allowPrivate: false })).rejects.toMatchObject({ reason: 'private' });
  await expect(safeFetchText('http://localhost:1/', { allowPrivate: false })).rejects.toMatchObject({
    reason: 'private',
  });
  await expect(safeFetchText('http://169.254.169.254/latest', { allowPrivate: false })).rejects.toMatchObject({
    reason: 'private',
  });
  await expect(safeFetchText('file:///etc/passwd', { allowPrivate: false })).rejects.toMatchObject({
    reason: 'protocol',
  });
  expect((await safeFetchText(`${site.url}/`, { allowPrivate: true })).body).toContain('G-1');
  site.set('/cn_sw.min.js', serviceWorkerFile({ publicUrl, geroId: 'G-1' }));
  for (const address of [
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '127.0.0.1',
    '::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    'fd00::1',
  ]) {
    expect(isPrivateAddress(address), address).toBe(true);
  }
  for (const address of ['8.8.8.8', '2001:4860:4860::8888', '200.160.2.3'])
    expect(isPrivateAddress(address), address).toBe(false);
});

it('stops at 2 MB and after 3 redirects', async () => {
  site.set('/big', 'x'.repeat(3 * 1024 * 1024));
  await expect(safeFetchText(`${site.url}/big`, { allowPrivate: true })).rejects.toMatchObject({ reason: 'too_large' });
  for (let i = 0; i < 5; i++) site.set(`/r${i}`, '', { status: 302, location: `/r${i + 1}` });
  await expect(safeFetchText(`${site.url}/r0`, { allowPrivate: true })).rejects.toMatchObject({ reason: 'redirects' });
});
