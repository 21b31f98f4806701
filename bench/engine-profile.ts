/**
 * Summarises a V8 `.cpuprofile` (node --cpu-prof) by where the time went: self time per category, decided by
 * the innermost frame that names a known package or Node module, so a crypto call made by web-push counts as
 * encryption and a socket write made by pg counts as the database driver.
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const RULES: [string, RegExp][] = [
  [
    'web push: encrypt (aes128gcm.cjs: ECDH, HMAC, AES-GCM; its threads)',
    /apps\/server\/src\/channels\/aes128gcm\.cjs|node_modules\/(web-push|http_ece)\//,
  ],
  ['web push: VAPID header (jws, jwa)', /node_modules\/(jws|jwa|asn1\.js|ecdsa-sig-formatter)\//],
  ['database driver (pg, drizzle)', /node_modules\/(pg|pg-protocol|pg-pool|pg-types|postgres-[\w-]+|drizzle-orm)\//],
  ['pg-boss', /node_modules\/pg-boss\//],
  ['AWS SDK (@aws-sdk, @smithy)', /node_modules\/(@aws-sdk|@smithy|@aws-crypto)\//],
  ['engine (apps/server/src/engine)', /apps\/server\/src\/engine\//],
  ['channels adapter (apps/server/src/channels)', /apps\/server\/src\/channels\//],
  ['collector and app (apps/server/src, other)', /apps\/server\/src\//],
  ['fastify, zod, pino', /node_modules\/(fastify|@fastify|find-my-way|avvio|light-my-request|zod|pino|sonic-boom)[/-]/],
  [
    'TLS, HTTP/2 and HTTPS (node:tls, node:http2, node:https, node:http)',
    /^node:(_tls|tls|https|_http|http|internal\/http2)/,
  ],
  ['sockets and streams (node:net, node:stream)', /^node:(net|stream|internal\/stream|internal\/net)/],
];

const categoryOf = (frame: CallFrame) => {
  if (frame.functionName === '(garbage collector)') return 'garbage collection';
  if (frame.functionName === '(idle)') return 'idle';
  if (frame.functionName === '(program)') return 'native, not attributed (program)';
  for (const [name, re] of RULES) if (re.test(frame.url)) return name;
  return undefined;
};

export interface ProfileSummary {
  totalMs: number;
  busyMs: number;
  categories: { name: string; ms: number; share: number }[];
  topFunctions: { name: string; ms: number }[];
}

export function summariseProfile(file: string): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const categoryCache = new Map<number, string>();
  const resolve = (id: number): string => {
    const hit = categoryCache.get(id);
    if (hit) return hit;
    const node = byId.get(id)!;
    const own = categoryOf(node.callFrame);
    const p = parent.get(id);
    // Anonymous native frames (crypto bindings, writev) take the category of the JavaScript that called them.
    const name = own ?? (p !== undefined ? resolve(p) : 'other (node internals, V8 builtins)');
    categoryCache.set(id, name);
    return name;
  };
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  }
  const categories = new Map<string, number>();
  const functions = new Map<string, number>();
  let totalMs = 0;
  for (const [id, ms] of self) {
    totalMs += ms;
    const name = resolve(id);
    categories.set(name, (categories.get(name) ?? 0) + ms);
    const f = byId.get(id)!.callFrame;
    const where = f.url
      ? `${f.url.replace(/^.*node_modules\//, '').replace(/^.*\/apps\//, 'apps/')}:${f.lineNumber + 1}`
      : '';
    const key = `${f.functionName || '(anonymous)'} ${where}`.trim();
    functions.set(key, (functions.get(key) ?? 0) + ms);
  }
  const idle = categories.get('idle') ?? 0;
  const busyMs = totalMs - idle;
  return {
    totalMs,
    busyMs,
    categories: [...categories]
      .filter(([name]) => name !== 'idle')
      .map(([name, ms]) => ({ name, ms, share: busyMs ? ms / busyMs : 0 }))
      .sort((a, b) => b.ms - a.ms),
    topFunctions: [...functions]
      .filter(([name]) => !name.startsWith('(idle)'))
      .map(([name, ms]) => ({ name, ms }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 15),
  };
}

/** Several processes' summaries as one (WORKERS > 0 profiles every process). */
export function mergeProfiles(list: ProfileSummary[]): ProfileSummary {
  const sum = (pick: (p: ProfileSummary) => { name: string; ms: number }[]) => {
    const m = new Map<string, number>();
    for (const p of list) for (const x of pick(p)) m.set(x.name, (m.get(x.name) ?? 0) + x.ms);
    return [...m].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
  };
  const busyMs = list.reduce((s, p) => s + p.busyMs, 0);
  return {
    totalMs: list.reduce((s, p) => s + p.totalMs, 0),
    busyMs,
    categories: sum((p) => p.categories).map((c) => ({ ...c, share: busyMs ? c.ms / busyMs : 0 })),
    topFunctions: sum((p) => p.topFunctions).slice(0, 15),
  };
}
