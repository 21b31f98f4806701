import type { DcmRule, DcmStats } from '@impeto/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Database, Db } from '../db/client.ts';
import type { EnvelopeKey } from './envelope.ts';
import type { Mailer } from './mailer.ts';
import type { TagCatalog } from './tag-catalog.ts';

/** One injectable clock: every time-dependent rule takes `now` from here, so tests move time instead of sleeping. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

/** What services need, built once by buildApp and handed to every module. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  mailer: Mailer;
  clock: Clock;
  envelope: EnvelopeKey;
  tag: TagCatalog;
  log: FastifyBaseLogger;
  /** The engine's entry points services call (set by buildApp; absent in tools that run without it). */
  engine?: EngineHooks;
  /** Conversion and cart attribution (set by buildApp). */
  attribution?: { forgetCartRule(domainUuid: string): void };
  /** GCD: the tag's rules and visitor profile, and the items' counters (modules/dcm, set by buildApp). */
  dcm: DcmHooks;
}

/** A domain as the GCD rules depend on it: verified domains also get customJs. */
export interface DcmDomain {
  uuid: string;
  geroValidate: boolean;
}

export interface DcmHooks {
  /** The fingerprint of the domain's tag rules (for /t/config), or null when it has none. */
  revision(domain: DcmDomain): Promise<string | null>;
  rules(domain: DcmDomain): Promise<{ rev: string | null; rules: DcmRule[] }>;
  /** What the rules' filters read of one visitor, overlaid with what this request tells. */
  visitorProfile(
    domain: DcmDomain,
    visitorId: string,
    fromRequest: Record<string, unknown>,
  ): Promise<Record<string, unknown>>;
  /** Whether the visitor's person is in the domain's global control group (GCD items with an A/B test show nothing). */
  globalControl(domain: DcmDomain, visitorId: string): Promise<boolean>;
  /** dcm_stats of the company's GCD items on the domain, by item uuid. */
  stats(companyUuid: string, domainUuid: string): Promise<Map<string, DcmStats>>;
}

export interface EngineHooks {
  /** A momentum was created or changed: refresh matchers, schedule or cancel its jobs. */
  momentumChanged(uuid: string): Promise<void>;
}
