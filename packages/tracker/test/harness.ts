// Test helpers: build the tag into a temporary folder and run a built tracker inside a jsdom page.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { JSDOM, VirtualConsole } from 'jsdom';
import { vi } from 'vitest';

const here = import.meta.dirname;
export const releases = JSON.parse(readFileSync(path.join(here, '..', 'releases.json'), 'utf8')) as {
  tracker: { version: string; features: { spa?: boolean; onsite?: boolean; dcm?: boolean; tz?: boolean } }[];
  serviceWorker: { version: string }[];
};

export const buildTag = () => {
  const out = mkdtempSync(path.join(tmpdir(), 'gero-tag-'));
  execFileSync(process.execPath, [path.join(here, '..', 'build.mjs'), out], { stdio: 'pipe' });
  return {
    out,
    read: (file: string) => readFileSync(path.join(out, file), 'utf8'),
    exists: (file: string) => existsSync(path.join(out, file)),
    remove: () => rmSync(out, { recursive: true, force: true }),
  };
};

export const BASE = 'https://impeto.example';
export const COLLECT = `${BASE}/collect`;
// 65 bytes, the size of a P-256 public key.
export const VAPID = Buffer.alloc(65, 7).toString('base64url');

export interface Sent {
  url: string;
  raw: string;
  body: { id: string; vid?: string; v: string; l: string; tz?: string; e: Record<string, unknown>[] };
}

export interface PageOptions {
  url?: string;
  referrer?: string;
  title?: string;
  storage?: Record<string, string>;
  /** sessionStorage before the tracker runs (a later page of the same tab session). */
  session?: Record<string, string>;
  /** Calls queued by the snippet before the tracker arrives (the snippet's `gero('init', …)` is added first). */
  queued?: unknown[][];
  init?: Record<string, unknown> | null;
  beacon?: 'ok' | 'false' | 'throws' | 'absent';
  /** Runs in the page before the tracker does (stubs for browser features). */
  setup?: (w: PageWindow) => void;
  /** The on-site messages the collector answers: to POST /collect (seen only through fetch) and GET /collect/pending. */
  onsite?: { collect?: unknown[]; pending?: unknown[] };
  /** Settings the loader read from /t/config beyond the defaults (e.g. `dcm`, the GCD rules' revision). */
  cfg?: Record<string, unknown>;
  /** Answers other GET requests (the GCD injector's rules and visitor profile); undefined: the on-site poll. */
  get?: (url: string) => unknown;
}

const opened: PageWindow[] = [];
/** Closes every page opened so far (their timers stop). */
export const closePages = () => {
  for (const w of opened.splice(0)) w.close();
};

// biome-ignore lint/suspicious/noExplicitAny: the jsdom window carries the page's own globals.
export type PageWindow = any;

export const openPage = (trackerCode: string, o: PageOptions = {}) => {
  const errors: unknown[] = [];
  const virtualConsole = new VirtualConsole();
  virtualConsole.on('jsdomError', (e: unknown) => errors.push(e));
  const dom = new JSDOM(`<!doctype html><html><head><title>${o.title ?? 'Loja'}</title></head><body></body></html>`, {
    url: o.url ?? 'https://loja.example/produtos?cor=azul',
    referrer: o.referrer,
    runScripts: 'outside-only',
    pretendToBeVisual: true,
    virtualConsole,
  });
  const w: PageWindow = dom.window;
  opened.push(w);
  for (const [k, v] of Object.entries(o.storage ?? {})) w.localStorage.setItem(k, v);
  for (const [k, v] of Object.entries(o.session ?? {})) w.sessionStorage.setItem(k, v);

  const beacons: Sent[] = [];
  const fetches: Sent[] = [];
  const record = (list: Sent[], url: string, raw: string) => list.push({ url, raw, body: JSON.parse(raw) });
  const beacon = o.beacon ?? 'ok';
  if (beacon !== 'absent')
    w.navigator.sendBeacon = vi.fn((url: string, raw: string) => {
      if (beacon === 'throws') throw new TypeError('sendBeacon: blocked');
      if (beacon === 'false') return false;
      record(beacons, url, raw);
      return true;
    });
  const polls: string[] = [];
  const onsite = { collect: [] as unknown[], pending: [] as unknown[], ...o.onsite };
  w.fetch = vi.fn(async (url: string, init?: { method?: string; body: string }) => {
    if (init?.method !== 'POST') {
      const answer = o.get?.(url);
      if (answer !== undefined) return { ok: true, json: async () => answer };
      polls.push(url);
      return { ok: true, json: async () => ({ onsite: onsite.pending }) };
    }
    record(fetches, url, init.body);
    return { ok: true, json: async () => ({ accepted: 1, rejected: [], onsite: onsite.collect }) };
  });

  // The snippet's queue function, exactly as customers paste it.
  w.eval('window.gero=window.gero||function(){(window.gero.q=window.gero.q||[]).push(arguments)};');
  const calls = [
    ...(o.init === null ? [] : [['init', { root: 'https://loja.example', id: 'g1', ...o.init }]]),
    ...(o.queued ?? []),
  ];
  for (const args of calls) w.gero(...args);
  w.__gero = {
    base: BASE,
    cfg: { id: 'g1', root: 'https://loja.example', enabled: true, collect: COLLECT, vapid_public: VAPID, ...o.cfg },
  };
  o.setup?.(w);
  w.eval(trackerCode);

  const events = () => [...beacons, ...fetches].flatMap((s) => s.body.e);
  return {
    window: w,
    beacons,
    fetches,
    /** GET requests (the on-site poll). */
    polls,
    /** What the collector answers from now on. */
    onsite,
    errors,
    events,
    gero: (...args: unknown[]) => w.gero(...args),
    hide: () => w.dispatchEvent(new w.Event('pagehide')),
  };
};

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface FakePushOptions {
  permission: 'default' | 'granted' | 'denied';
  /** What the permission prompt answers. */
  answer?: 'default' | 'granted' | 'denied';
  /** The endpoint of the subscription the browser already has. */
  endpoint?: string;
}

const subscription = (endpoint: string) => ({
  endpoint,
  toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh: 'BPk', auth: 'au' } }),
});

/** Service worker, PushManager and Notification stubs in the page. */
export const fakePush = (w: PageWindow, o: FakePushOptions) => {
  let current = o.endpoint ? subscription(o.endpoint) : null;
  const pushManager = {
    getSubscription: vi.fn(async () => current),
    subscribe: vi.fn(async (_options: unknown) => {
      current = subscription('https://push.example/nova');
      return current;
    }),
  };
  const registration = { pushManager };
  const serviceWorker = { register: vi.fn(async () => registration), ready: Promise.resolve(registration) };
  Object.defineProperty(w.navigator, 'serviceWorker', { value: serviceWorker, configurable: true });
  w.PushManager = function PushManager() {};
  const notification = {
    permission: o.permission,
    requestPermission: vi.fn(async () => {
      notification.permission = o.answer ?? 'default';
      return notification.permission;
    }),
  };
  w.Notification = notification;
  return { serviceWorker, pushManager, notification };
};
