import { collectMessages } from '@impeto/shared';
import { describe, expect, it } from 'vitest';
import { guardEvents, isPublicPushEndpoint } from './guard-events.ts';

/* The collector's guard alone: which events of a request are kept, and why each other one is rejected by index. */

const subscription = (endpoint: string) => ({ endpoint, keys: { p256dh: 'chave', auth: 'segredo' } });
const visitor = { careful: false, hasVisitor: true, allowPrivateFetch: false };

describe('guardEvents', () => {
  it('keeps the valid events and rejects each other one by its index, with its pt-BR reason', () => {
    const { accepted, rejected } = guardEvents(
      [
        { t: 'pv', u: 'https://loja.com.br/' },
        { t: 'nada' },
        { t: 'optin', s: subscription('https://192.168.0.10/push') },
        { t: 'ev', c: 'compra' },
      ],
      visitor,
    );
    expect(accepted.map((e) => e.t)).toEqual(['pv', 'ev']);
    expect(rejected.map((r) => r.index)).toEqual([1, 2]);
    expect(rejected[1]!.message).toBe(collectMessages.privateEndpoint);
  });

  it('without a visitor id keeps only what the service worker may send', () => {
    const { accepted, rejected } = guardEvents(
      [
        { t: 'pv', u: 'https://loja.com.br/' },
        { t: 'clicked', d: '6f1c2b1e-5d8a-4c7e-9a31-2b8f0d4e6a10' },
      ],
      { ...visitor, hasVisitor: false },
    );
    expect(accepted.map((e) => e.t)).toEqual(['clicked']);
    expect(rejected).toEqual([{ index: 0, message: collectMessages.missingVisitor }]);
  });

  it('when careful, cleans free text and refuses a category that cannot be stored', () => {
    const NUL = String.fromCharCode(0);
    const { accepted, rejected } = guardEvents(
      [
        { t: 'pv', u: `https://loja.com.br/${NUL}a` },
        { t: 'ev', c: `com${NUL}pra` },
      ],
      { ...visitor, careful: true },
    );
    expect(accepted).toEqual([{ t: 'pv', u: 'https://loja.com.br/a' }]);
    expect(rejected).toEqual([{ index: 1, message: collectMessages.unstorableCategory }]);
  });
});

describe('isPublicPushEndpoint', () => {
  it('accepts https on a public host only, unless private fetches are allowed', () => {
    expect(isPublicPushEndpoint('https://fcm.googleapis.com/fcm/send/x', false)).toBe(true);
    expect(isPublicPushEndpoint('http://fcm.googleapis.com/fcm/send/x', false)).toBe(false);
    expect(isPublicPushEndpoint('https://10.0.0.1/x', false)).toBe(false);
    expect(isPublicPushEndpoint('https://push.local/x', false)).toBe(false);
    expect(isPublicPushEndpoint('https://intranet/x', false)).toBe(false);
    expect(isPublicPushEndpoint('http://127.0.0.1:9000/x', true)).toBe(true);
  });
});
