import type { Clock } from './context.ts';

/**
 * The demonstration clock: the base clock moved back by an offset. Only buildApp creates it, and only when the
 * server runs with DEMO_CLOCK=1 outside production (config.ts refuses the pair); only `PUT /api/dev/clock`, answered
 * to this machine alone, moves it. Every rule that reads `ctx.clock` (the collector's reception instant, the daily
 * rollups, the engine's due, sent, viewed and clicked instants, attribution) then runs as on that day.
 */
export interface DemoClock extends Clock {
  /** Moves the clock to `at` (it then runs on from there); null gives the base clock back. */
  set(at: Date | null): void;
  shifted(): boolean;
  /** The base clock's now (the instant the demonstration clock may not pass). */
  real(): Date;
}

export function createDemoClock(base: Clock): DemoClock {
  let offsetMs = 0;
  return {
    now: () => (offsetMs === 0 ? base.now() : new Date(base.now().getTime() + offsetMs)),
    set(at) {
      offsetMs = at === null ? 0 : at.getTime() - base.now().getTime();
    },
    shifted: () => offsetMs !== 0,
    real: () => base.now(),
  };
}
