import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { ENGINE_DEFAULTS } from './engine/defaults.ts';

const flag = z
  .enum(['0', '1', 'true', 'false'])
  .default('0')
  .transform((v) => v === '1' || v === 'true');

const PROXY_KEYWORDS = new Set(['loopback', 'linklocal', 'uniquelocal']);
const isProxyAddress = (entry: string) => {
  if (PROXY_KEYWORDS.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
};
/**
 * Fastify's trustProxy: off (`0`, `false`, unset), `1`/`true` (every X-Forwarded-For entry: right only when the
 * proxy overwrites the header, since a client can write its first entries), or the proxies' addresses, CIDRs and
 * proxy-addr's keywords (the client is the first address no trusted proxy wrote). Fastify ignores hop counts.
 */
const trustProxy = z
  .string()
  .trim()
  .default('0')
  .transform((v, issue): boolean | string => {
    if (v === '' || v === '0' || v === 'false') return false;
    if (v === '1' || v === 'true') return true;
    const entries = v.split(',').map((e) => e.trim());
    if (entries.every(isProxyAddress)) return entries.join(',');
    issue.addIssue({
      code: 'custom',
      message: 'use 0, 1 (ou true) ou os endereços e faixas CIDR dos proxies, separados por vírgula',
    });
    return z.NEVER;
  });

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Ímpeto <nao-responda@impeto.local>'),
  ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  ALLOW_PRIVATE_FETCH: flag,
  /** `npm run demo`: a server clock that `PUT /api/dev/clock` may move back (never with NODE_ENV=production). */
  DEMO_CLOCK: flag,
  SECRET_KEY: z.string().min(32, 'SECRET_KEY precisa de pelo menos 32 caracteres').optional(),
  VAPID_SUBJECT: z.string().optional(),
  AUTH_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  /** HTTP processes sharing the port (node:cluster), for machines with several cores; PostgreSQL only. */
  API_PROCESSES: z.coerce.number().int().min(1).max(64).default(1),
  /** Seconds a delivery may stay `sending` before a sweeper hands it back to the queue (a worker died). */
  DELIVERY_LEASE_SECONDS: z.coerce.number().int().positive().default(60),
  /** Deliveries one send pass claims at once, and sends in flight per pass (two passes overlap): engine/defaults.ts. */
  ENGINE_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(ENGINE_DEFAULTS.batchSize),
  ENGINE_CONCURRENCY: z.coerce.number().int().min(1).max(1024).default(ENGINE_DEFAULTS.concurrency),
  /** Worker threads encrypting web pushes (aes128gcm); unset: one per spare core, up to 4; 0: on the main thread. */
  PUSH_ENCRYPT_THREADS: z.coerce.number().int().min(0).max(64).optional(),
  /** The collector's write-ahead spool folder (accepted events survive a crash); `off`: memory only. */
  COLLECT_SPOOL: z.string().optional(),
  /** Accepted events held in memory for the database; past it they wait in the spool only (or 503 without one). */
  COLLECT_MEMORY_EVENTS: z.coerce.number().int().min(1).default(50_000),
  /** Megabytes of accepted requests the spool keeps on disk only, when memory is full; past it the answer is 503. */
  COLLECT_SPOOL_MAX_MB: z.coerce.number().int().min(1).default(1024),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  TRACKER_DIST: z.string().optional(),
  TRUST_PROXY: trustProxy,
  TRUSTED_GEO_HEADERS: z.enum(['none', 'cloudflare', 'vercel']).default('none'),
  /** The drizzle-kit migrations folder (tests point it at a copy with a broken migration). */
  MIGRATIONS_DIR: z.string().optional(),
  /** Providers' base URLs (operator configuration; tests and staging point them at local peers). */
  ZENVIA_API_URL: z.url().default('https://api-rest.zenvia.com'),
  AKNA_API_URL: z.url().default('https://api.akna.com.br'),
  ONESIGNAL_API_URL: z.url().default('https://api.onesignal.com'),
  AWS_SES_ENDPOINT: z.url().optional(),
});

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  role: 'all' | 'api' | 'worker';
  apiProcesses: number;
  nodeEnv: 'development' | 'production' | 'test';
  allowPrivateFetch: boolean;
  /** The demonstration clock (lib/demo-clock.ts): development only, moved by this machine only. */
  demoClock: boolean;
  secretKey: string;
  vapidSubject: string;
  /** Sign-in attempts per minute, per IP and per username. */
  authRateLimit: number;
  deliveryLeaseSeconds: number;
  /** Folder of the collector's spool; undefined when `COLLECT_SPOOL=off`. */
  collectSpool?: string;
  collectMemoryEvents: number;
  collectSpoolMaxBytes: number;
  engineBatchSize: number;
  engineConcurrency: number;
  pushEncryptThreads?: number;
  logLevel: string;
  /** The built dashboard (apps/web/dist); served when present. */
  webDist: string;
  /** The built tag (packages/tracker/dist): loader, versioned trackers and service workers. */
  trackerDist: string;
  /**
   * Behind a reverse proxy (Fastify's trustProxy: true, or the proxies' addresses): the client address comes from
   * X-Forwarded-For, and the routes served to this machine only (outbox, demonstration clock) are off.
   */
  trustProxy: boolean | string;
  /** A CDN whose geo headers we trust over our own database. */
  trustedGeoHeaders: 'none' | 'cloudflare' | 'vercel';
  /** The migrations applied at start (apps/server/drizzle). */
  migrationsDir: string;
  /** Proof-of-work cost of the sign-in captcha (PBKDF2 iterations, counter range). */
  captcha: { cost: number; counterMin: number; counterMax: number };
  /** Base URLs of the SMS/e-mail/OneSignal providers; `sesEndpoint` undefined = the SDK's regional endpoint. */
  providers: { zenvia: string; akna: string; oneSignal: string; sesEndpoint?: string };
}

const readOrCreateSecret = (dataDir: string) => {
  const file = path.join(dataDir, 'secret.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString('base64url');
  writeFileSync(file, key, { mode: 0o600 });
  return key;
};

const mailAddress = (from: string) => from.match(/<([^>]+)>/)?.[1] ?? from;

/** The only reader of process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Configuração inválida:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.ROLE !== 'all' && !e.DATABASE_URL) {
    throw new Error(`ROLE=${e.ROLE} precisa de DATABASE_URL: o banco embutido (PGlite) aceita um único processo.`);
  }
  if (e.API_PROCESSES > 1 && !e.DATABASE_URL) {
    throw new Error(
      'API_PROCESSES acima de 1 precisa de DATABASE_URL: o banco embutido (PGlite) aceita um único processo.',
    );
  }
  if (e.DEMO_CLOCK && e.NODE_ENV === 'production') {
    throw new Error(
      'DEMO_CLOCK=1 não é aceito com NODE_ENV=production: o relógio de demonstração existe só para `npm run demo`.',
    );
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = (e.PUBLIC_URL ?? `http://${e.HOST}:${e.PORT}`).replace(/\/$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    dataDir,
    databaseUrl: e.DATABASE_URL || undefined,
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    role: e.ROLE,
    apiProcesses: e.ROLE === 'worker' ? 1 : e.API_PROCESSES,
    nodeEnv: e.NODE_ENV,
    allowPrivateFetch: e.ALLOW_PRIVATE_FETCH,
    demoClock: e.DEMO_CLOCK,
    secretKey: e.SECRET_KEY ?? readOrCreateSecret(dataDir),
    vapidSubject: e.VAPID_SUBJECT ?? `mailto:${mailAddress(e.MAIL_FROM)}`,
    authRateLimit: e.AUTH_RATE_LIMIT,
    deliveryLeaseSeconds: e.DELIVERY_LEASE_SECONDS,
    engineBatchSize: e.ENGINE_BATCH_SIZE,
    engineConcurrency: e.ENGINE_CONCURRENCY,
    pushEncryptThreads: e.PUSH_ENCRYPT_THREADS,
    collectMemoryEvents: e.COLLECT_MEMORY_EVENTS,
    collectSpoolMaxBytes: e.COLLECT_SPOOL_MAX_MB * 1024 * 1024,
    collectSpool: e.COLLECT_SPOOL === 'off' ? undefined : path.resolve(e.COLLECT_SPOOL ?? path.join(dataDir, 'spool')),
    logLevel: e.LOG_LEVEL,
    webDist: path.resolve(e.WEB_DIST ?? path.join(import.meta.dirname, '../../web/dist')),
    trackerDist: path.resolve(e.TRACKER_DIST ?? path.join(import.meta.dirname, '../../../packages/tracker/dist')),
    trustProxy: e.TRUST_PROXY,
    trustedGeoHeaders: e.TRUSTED_GEO_HEADERS,
    migrationsDir: path.resolve(e.MIGRATIONS_DIR ?? path.join(import.meta.dirname, '../drizzle')),
    captcha: { cost: 1000, counterMin: 1000, counterMax: 3000 },
    providers: {
      zenvia: e.ZENVIA_API_URL,
      akna: e.AKNA_API_URL,
      oneSignal: e.ONESIGNAL_API_URL,
      ...(e.AWS_SES_ENDPOINT ? { sesEndpoint: e.AWS_SES_ENDPOINT } : {}),
    },
  };
}
