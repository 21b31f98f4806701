import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A tiny website on 127.0.0.1 whose pages the test rewrites: the "customer's site" of script verification. */
export async function startTestSite() {
  const pages = new Map<string, { status?: number; body: string; location?: string }>();
  const server = http.createServer((req, res) => {
    const page = pages.get(req.url ?? '/');
    if (!page) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(page.status ?? 200, {
      'content-type': req.url?.endsWith('.js') ? 'application/javascript' : 'text/html; charset=utf-8',
      ...(page.location ? { location: page.location } : {}),
    });
    res.end(page.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    set: (path: string, body: string, extra: { status?: number; location?: string } = {}) =>
      pages.set(path, { body, ...extra }),
    remove: (path: string) => pages.delete(path),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
