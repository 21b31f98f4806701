/**
 * A small closed-loop HTTP/1.1 load generator on raw keep-alive sockets (node:net): each connection sends one
 * pre-built request, waits for the whole answer, records its latency and status and sends the next one. No
 * pipelining. Parsing is only what Fastify's answers need (status line, content-length, the `accepted` count).
 */
import net from 'node:net';

export interface LoadOptions {
  port: number;
  host?: string;
  connections: number;
  /** Pre-built requests (head + body), sent round-robin across all connections. */
  requests: Buffer[];
  /** Events carried by each request, for the fallback when an answer has no `accepted`. */
  eventsPerRequest: number;
  durationMs: number;
  /** Paced instead of closed loop: requests per second over all connections (each still waits for its answer). */
  ratePerSecond?: number;
  /** Called for every answer (timelines). */
  onAnswer?: (status: number, accepted: number, latencyMs: number) => void;
}

export interface LoadResult {
  durationMs: number;
  requests: number;
  non202: number;
  statuses: Record<string, number>;
  errors: number;
  /** Sum of `accepted` over the 202 answers. */
  accepted: number;
  latenciesMs: Float64Array;
}

const HEADER_END = Buffer.from('\r\n\r\n');
const ACCEPTED_RE = /"accepted":(\d+)/;

export function buildRequest(path: string, body: string, headers: Record<string, string>, host: string) {
  const bytes = Buffer.from(body);
  const lines = [`POST ${path} HTTP/1.1`, `host: ${host}`, 'connection: keep-alive'];
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  lines.push(`content-length: ${bytes.length}`, '', '');
  return Buffer.concat([Buffer.from(lines.join('\r\n')), bytes]);
}

export function runLoad(o: LoadOptions): Promise<LoadResult> {
  const host = o.host ?? '127.0.0.1';
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  let non202 = 0;
  let errors = 0;
  let accepted = 0;
  const statuses: Record<string, number> = {};
  let next = 0;
  let scheduled = 0;
  let stopping = false;
  const started = performance.now();
  const deadline = started + o.durationMs;

  const record = (ms: number) => {
    if (count === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[count++] = ms;
  };

  return new Promise((resolve) => {
    let open = o.connections;
    const finish = () => {
      if (--open > 0) return;
      resolve({
        durationMs: performance.now() - started,
        requests: count,
        non202,
        statuses,
        errors,
        accepted,
        latenciesMs: latencies.subarray(0, count),
      });
    };

    for (let c = 0; c < o.connections; c++) {
      const socket = net.connect({ port: o.port, host, noDelay: true });
      let buf: Buffer = Buffer.alloc(0);
      let sentAt = 0;
      let done = false;
      const end = () => {
        if (done) return;
        done = true;
        socket.destroy();
        finish();
      };
      const fire = () => {
        if (stopping || performance.now() >= deadline) {
          stopping = true;
          return end();
        }
        if (o.ratePerSecond) {
          // Each request has a slot on a common schedule; a connection whose slot is ahead waits for it.
          const due = started + (scheduled++ * 1000) / o.ratePerSecond;
          const wait = due - performance.now();
          if (wait > 0.5) {
            setTimeout(send, wait);
            return;
          }
        }
        send();
      };
      const send = () => {
        if (stopping || performance.now() >= deadline) {
          stopping = true;
          return end();
        }
        const req = o.requests[next++ % o.requests.length]!;
        sentAt = performance.now();
        socket.write(req);
      };
      socket.on('connect', fire);
      socket.on('error', () => {
        errors++;
        end();
      });
      socket.on('close', end);
      socket.on('data', (chunk: Buffer) => {
        buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
        for (;;) {
          const headEnd = buf.indexOf(HEADER_END);
          if (headEnd < 0) return;
          const head = buf.toString('latin1', 0, headEnd);
          const lengthMatch = /\r\ncontent-length:\s*(\d+)/i.exec(head);
          const length = lengthMatch ? Number(lengthMatch[1]) : 0;
          const total = headEnd + 4 + length;
          if (buf.length < total) return;
          const status = Number(head.slice(9, 12));
          const body = buf.toString('utf8', headEnd + 4, total);
          buf = buf.subarray(total);
          const ms = performance.now() - sentAt;
          record(ms);
          statuses[status] = (statuses[status] ?? 0) + 1;
          let n = 0;
          if (status === 202) {
            const m = ACCEPTED_RE.exec(body);
            n = m ? Number(m[1]) : o.eventsPerRequest;
            accepted += n;
          } else non202++;
          o.onAnswer?.(status, n, ms);
          fire();
        }
      });
    }
  });
}

export function percentile(sorted: Float64Array, p: number) {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}
