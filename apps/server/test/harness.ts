import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { type AppDeps, buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { type Database, fromPglite, fromPostgres } from '../src/db/client.ts';
import type { Clock } from '../src/lib/context.ts';
import { solveCaptchaChallenge } from './captcha-solver.ts';
import { adminUrl } from './postgres-url.ts';
import { pushServiceCert } from './push-service.ts';

/** A clock the test moves by hand. */
export class TestClock implements Clock {
  private offset = 0;
  now() {
    return new Date(Date.now() + this.offset);
  }
  advance(ms: number) {
    this.offset += ms;
  }
  /** Jumps to an instant (time keeps flowing from there). */
  set(at: Date | string) {
    this.offset = new Date(at).getTime() - Date.now();
  }
}

/** A fresh copy of the migrated template database, of the kind this project runs on. */
export async function freshDatabase(): Promise<Database> {
  if (inject('dbKind') === 'pglite') {
    const dump = readFileSync(inject('pgliteDump'));
    return fromPglite(await PGlite.create({ loadDataDir: new Blob([dump]) }));
  }
  const url = inject('pgUrl');
  const name = `${inject('pgTemplate')}_f_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  // The template must have no other session while it is copied; files run in parallel, so retry briefly.
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplate')}`);
      break;
    } catch (err) {
      if (attempt > 20 || (err as { code?: string }).code !== '55006') throw err;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    }
  }
  await admin.end();
  const database = fromPostgres(adminUrl(url, name), 4);
  const close = database.close;
  database.close = async () => {
    await close();
    const cleanup = new pg.Client({ connectionString: url });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await cleanup.end();
  };
  return database;
}

export const testConfig = (overrides: Partial<Config> = {}): Config => ({
  ...loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: '/tmp/impeto-test-unused',
    SECRET_KEY: 'k'.repeat(43),
    LOG_LEVEL: 'silent',
  }),
  captcha: { cost: 10, counterMin: 1, counterMax: 40 },
  webDist: '/nonexistent',
  ...overrides,
});

export interface TestApp {
  app: FastifyInstance;
  clock: TestClock;
  close(): Promise<void>;
}

/**
 * Tests drive the engine by hand (engine.dispatchDue, engine.jobs.run) unless `engine.work` is set. Each app
 * gets its own collector spool folder, removed on close, unless `collectSpool` is given.
 */
export async function createTestApp(
  overrides: Partial<Config> = {},
  deps: Pick<AppDeps, 'engine' | 'database' | 'migrate' | 'logStream'> = {},
): Promise<TestApp> {
  const clock = new TestClock();
  const ownSpool = 'collectSpool' in overrides ? undefined : mkdtempSync(path.join(tmpdir(), 'impeto-spool-'));
  const app = await buildApp(testConfig({ collectSpool: ownSpool, ...overrides }), {
    database: deps.database ?? (await freshDatabase()),
    clock,
    migrate: deps.migrate ?? false,
    logStream: deps.logStream,
    engine: { work: false, pushCa: pushServiceCert, ...deps.engine },
  });
  await app.ready();
  return {
    app,
    clock,
    close: async () => {
      await app.close();
      if (ownSpool) rmSync(ownSpool, { recursive: true, force: true });
    },
  };
}

/** Calls the API as a client would; `token` adds the bearer header. */
export async function call(
  app: FastifyInstance,
  method: InjectOptions['method'],
  url: string,
  body?: unknown,
  token?: string,
) {
  const res = await app.inject({
    method,
    url,
    headers: {
      'accept-language': 'pt_BR',
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    payload: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.statusCode, body: res.body ? res.json() : undefined, headers: res.headers };
}

/** Solves the sign-in captcha the way the ALTCHA widget does and returns its base64 payload. */
export async function solveCaptcha(app: FastifyInstance) {
  return solveCaptchaChallenge((await app.inject({ method: 'GET', url: '/api/captcha' })).json());
}

/** The development outbox, read in the process: GET /api/dev/outbox is off behind a proxy (TRUST_PROXY). */
export const outbox = async (app: FastifyInstance) => {
  if (!app.ctx.mailer.outbox) throw new Error('sem caixa de saída de desenvolvimento (SMTP_URL ou produção)');
  return structuredClone(app.ctx.mailer.outbox) as { to: string; subject: string; links: string[] }[];
};

let seq = 0;
/** Signs up a company and a user through the API, validates the e-mail, and signs in: the whole public path. */
export async function signUpAndSignIn(app: FastifyInstance, opts: { validate?: boolean; keep?: boolean } = {}) {
  seq++;
  const tag = `${process.pid}${seq}${randomBytes(3).toString('hex')}`;
  const company = (await call(app, 'POST', '/api/company/create', { company: { name: `Loja ${tag}` } })).body.data
    .company;
  const user = {
    company_uuid: company.uuid,
    name: `Maria ${tag}`,
    username: `maria${tag}`,
    email: `maria${tag}@exemplo.com.br`,
    password: 'senha-forte-123',
    password_confirmation: 'senha-forte-123',
  };
  const signup = await call(app, 'POST', '/api/users/signup', { user });
  if (signup.status !== 200) throw new Error(`signup falhou: ${JSON.stringify(signup.body)}`);
  if (opts.validate !== false) {
    const link = (await outbox(app)).find((m) => m.to === user.email)!.links[0]!;
    const cid = new URL(link).searchParams.get('cid');
    await call(app, 'PUT', '/api/users/validate', { user: { cid } });
  }
  const signin = await call(app, 'POST', '/api/users/signin', {
    user: { username: user.username, password: user.password },
    captcha: await solveCaptcha(app),
    ...(opts.keep ? { keep_connected: true } : {}),
  });
  return { company, user, signin, token: signin.body?.data?.token as string };
}

/** A domain created through `POST /api/domain/create` by `owner` (gero_id, VAPID keys and all); throws if refused. */
export async function createDomain(
  app: FastifyInstance,
  owner: Awaited<ReturnType<typeof signUpAndSignIn>>,
  name: string,
  address: string,
) {
  const res = await call(
    app,
    'POST',
    '/api/domain/create',
    { domain: { company_uuid: owner.company.uuid, name, domain: address } },
    owner.token,
  );
  if (res.status !== 200) throw new Error(`domain/create falhou: ${JSON.stringify(res.body)}`);
  return res.body.data as { uuid: string; gero_id: string; [key: string]: unknown };
}

/** A valid company form of spec doc 1 §3 (the settings page's fields); `over` replaces fields. */
export const companyForm = (over: Record<string, unknown> = {}) => ({
  document: { type: 'cnpj', number: '11.222.333/0001-81' },
  inscricao_municipal: '1234567',
  razao_social: 'Padaria Pão Quente Ltda.',
  email: 'financeiro@paoquente.com.br',
  endereco: 'Rua das Flores',
  numero: '100',
  bairro: 'Centro',
  zip_code: '01310-930',
  cidade: 'São Paulo',
  uf: 'SP',
  country: 'Brasil',
  telefone: '(11) 98765-4321',
  dt_birthday: '29/02/2024',
  dt_payment: null,
  type_payment: null,
  credit_card: null,
  notes: null,
  ...over,
});

/** Momentum blocks the tests share: everyone, a page-view trigger, an on-site top bar. */
export const blocks = {
  everyone: { type: 'filter', values: [{ filter: 'all' }] },
  pageviewContaining: (path: string) => ({
    type: 'trigger',
    regex: false,
    values: [{ filter: 'pageview', comparation: 'contain', value: [path], dischargeIn: [] }],
  }),
  topbar: (extra: Record<string, unknown> = {}) => ({
    type: 'dispatcher',
    values: [
      {
        filter: 'SUPERARE_WEBVIEW',
        webview_type: 'topbar',
        webview_mode: 'devices_all',
        webview_props: { topbarContent: 'Frete grátis hoje!', topbarBtnText: 'Ver ofertas' },
        ...extra,
      },
    ],
  }),
};

/** An Active momentum created through `POST /api/momentum/create` by `owner`; throws if refused. */
export async function createMomentum(
  app: FastifyInstance,
  owner: Awaited<ReturnType<typeof signUpAndSignIn>>,
  domainUuid: string,
  title: string,
  momentums: object[],
) {
  const res = await call(
    app,
    'POST',
    '/api/momentum/create',
    { domain_uuid: domainUuid, type: 'momentum', momentum_title: title, status: 'Active', momentums },
    owner.token,
  );
  if (res.status !== 200) throw new Error(`momentum/create falhou: ${JSON.stringify(res.body)}`);
  return res.body.data as { uuid: string };
}
