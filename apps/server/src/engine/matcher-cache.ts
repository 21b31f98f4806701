import type { AppContext } from '../lib/context.ts';
import * as q from './deliveries.queries.ts';
import { type CompiledMomentum, tryCompileStored } from './matcher.ts';
import { startsFromEvents } from './qualify.ts';

const MATCHER_TTL_MS = 30_000;

/** Per domain, its active momentums that events start, compiled: what matching.ts runs each stored event through. */
export interface MatcherCache {
  of(domainUuid: string): Promise<CompiledMomentum[]>;
  /** A momentum of the domain changed (no domain: anything may have, as after a lost LISTEN): read them again. */
  invalidate(domainUuid?: string): void;
}

export function createMatcherCache({ db, log }: Pick<AppContext, 'db' | 'log'>): MatcherCache {
  const matchers = new Map<string, { at: number; list: CompiledMomentum[] }>();
  /**
   * Bumped by every invalidation: a matcher list read before a momentum changed (its query in flight when the
   * change committed) is used for the events that asked for it but not cached, or it would hide the change for
   * MATCHER_TTL_MS (a momentum created while a page view of its domain was being matched on another connection).
   */
  let epoch = 0;

  return {
    async of(domainUuid) {
      const hit = matchers.get(domainUuid);
      if (hit && Date.now() - hit.at < MATCHER_TTL_MS) return hit.list;
      const readAt = epoch;
      const list = (await q.activeTriggeredMomentums(db, domainUuid))
        .flatMap((m) => {
          const compiled = tryCompileStored(m, log);
          return compiled ? [compiled] : [];
        })
        .filter(startsFromEvents);
      if (readAt === epoch) matchers.set(domainUuid, { at: Date.now(), list });
      return list;
    },
    invalidate(domainUuid) {
      epoch++;
      if (domainUuid) matchers.delete(domainUuid);
      else matchers.clear();
    },
  };
}
