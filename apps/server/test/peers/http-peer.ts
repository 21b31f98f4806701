import http from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * What the providers' local peers share: an HTTP server on 127.0.0.1, the raw body, and scripted answers a test
 * queues up (status, headers, body, for the next N requests) to play a provider's failures.
 */

export interface Scripted {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface PeerRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body: string;
}

export async function startHttpPeer(handle: (req: PeerRequest) => Reply | Promise<Reply>, port = 0) {
  const script: (Scripted & { remaining: number })[] = [];
  let requests = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      requests++;
      const scripted = script[0];
      if (scripted) {
        if (--scripted.remaining <= 0) script.shift();
        res.writeHead(scripted.status, scripted.headers ?? {}).end(scripted.body ?? '');
        return;
      }
      try {
        const reply = await handle({
          method: req.method ?? 'GET',
          path: req.url ?? '/',
          headers: req.headers,
          body: Buffer.concat(chunks),
        });
        res.writeHead(reply.status, reply.headers ?? {}).end(reply.body);
      } catch (err) {
        res.writeHead(500).end(String(err));
      }
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    /** Every request handled so far, scripted or not (a function: the peers spread this object, which would
     *  freeze a getter's value). */
    requestCount: () => requests,
    /** The next `times` requests get this answer instead of the provider's normal behaviour. */
    respondWith(answer: Scripted, times = 1) {
      script.push({ ...answer, remaining: times });
    },
    clearScript() {
      script.length = 0;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export const json = (status: number, value: unknown, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(value),
});
