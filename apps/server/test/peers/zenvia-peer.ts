import { json, startHttpPeer } from './http-peer.ts';

/*
 * Zenvia's SMS REST API on 127.0.0.1: `POST /services/send-sms`. Like Zenvia it checks HTTP Basic credentials
 * (401 otherwise), the `sendSmsRequest` shape (to: country code + DDD + number; msg: 1–160 characters; id) and
 * refuses an id it already has (statusCode 10, detailCode 011).
 */

export interface Sms {
  from?: string;
  to: string;
  msg: string;
  id: string;
  at: Date;
}

const response = (statusCode: string, detailCode: string, detailDescription: string, statusDescription = 'Ok') => ({
  sendSmsResponse: { statusCode, statusDescription, detailCode, detailDescription },
});

export async function startZenviaPeer(
  options: {
    accounts?: Record<string, string>;
    /** A fixed port (e2e: the server is configured before the peer starts); default any free port. */
    port?: number;
  } = {},
) {
  const accounts = new Map(Object.entries(options.accounts ?? {}));
  const received: Sms[] = [];
  const ids = new Set<string>();
  const peer = await startHttpPeer((req) => {
    if (req.method !== 'POST' || req.path !== '/services/send-sms') return json(404, { error: 'not found' });
    const auth = String(req.headers.authorization ?? '');
    const plain = auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString('utf8') : '';
    const at = plain.indexOf(':');
    if (at < 0 || accounts.get(plain.slice(0, at)) !== plain.slice(at + 1))
      return json(401, { error: { code: '401', message: 'Unauthorized' } });
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json'))
      return json(415, { error: 'Content-Type must be application/json' });
    let r: { from?: string; to?: string; msg?: string; id?: string } | undefined;
    try {
      r = JSON.parse(req.body.toString('utf8')).sendSmsRequest;
    } catch {}
    if (!r) return json(400, response('10', '999', 'Invalid request', 'Error'));
    if (!r.to || !/^55\d{10,11}$/.test(r.to)) return json(200, response('10', '013', 'Invalid destination', 'Error'));
    if (!r.msg) return json(200, response('10', '010', 'Empty message content', 'Error'));
    if ([...r.msg].length > 160) return json(200, response('10', '013', 'Message content overflow', 'Error'));
    if (r.id) {
      if (ids.has(r.id)) return json(200, response('10', '011', 'Message id already exists', 'Error'));
      ids.add(r.id);
    }
    received.push({ ...(r.from ? { from: r.from } : {}), to: r.to, msg: r.msg, id: r.id ?? '', at: new Date() });
    return json(200, response('00', '000', 'Message Sent'));
  }, options.port);
  return {
    ...peer,
    received,
    addAccount(login: string, password: string) {
      accounts.set(login, password);
    },
  };
}

export type ZenviaPeer = Awaited<ReturnType<typeof startZenviaPeer>>;
