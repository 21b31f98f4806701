import type { AppContext } from '../lib/context.ts';
import * as q from './deliveries.queries.ts';

/**
 * Outcomes are written as they come, not once per claimed batch: a worker that dies mid-batch leaves only its last
 * few sends unrecorded (the at-least-once window, DESIGN.md §11: fewer than RECORD_EVERY plus those of one write in
 * progress). One write at a time, each of at least RECORD_EVERY outcomes (the batch's last takes what is left): what
 * arrives while one runs goes into the next statement. Statements that took whatever had arrived averaged 35 rows,
 * and their planning, commit and counter upsert cost PostgreSQL 8.3 s per 100,000 pushes; at 100 or more rows it is
 * about 5 s (bench/RESULTS.md).
 */
export const RECORD_EVERY = 100;

/** The outcome stage of one send pass: where a batch's outcomes are written. */
export interface OutcomeRecorder {
  add(outcome: q.Outcome): void;
  /** A delivery that went out: its outcome, and the person's notified.* attributes (markNotified). */
  addSent(outcome: q.Outcome, personUuid: string, momentumUuid: string): void;
  /** Writes what is left and waits for every write; throws the first write's failure. */
  finish(): Promise<void>;
}

export function createOutcomeRecorder(ctx: Pick<AppContext, 'db' | 'clock'>): OutcomeRecorder {
  const { db, clock } = ctx;
  let outcomes: q.Outcome[] = [];
  let sent: { personUuid: string; momentumUuid: string }[] = [];
  let recording: Promise<void> | undefined;
  let recordFailure: unknown;
  let finishing = false;

  const due = () => outcomes.length >= (finishing ? 1 : RECORD_EVERY);
  const record = () => {
    // Only with something to write: a run that never awaits would clear `recording` before it is assigned, and
    // `finish` would then wait on that settled promise forever (a pass whose outcomes were all written already).
    if (recording || !due()) return;
    recording = (async () => {
      try {
        while (due()) {
          const [o, s] = [outcomes, sent];
          outcomes = [];
          sent = [];
          await q.recordOutcomes(db, o, clock.now());
          await q.markNotified(db, s);
        }
      } catch (err) {
        recordFailure ??= err;
      } finally {
        recording = undefined;
      }
    })();
  };

  const add = (outcome: q.Outcome) => {
    outcomes.push(outcome);
    if (outcomes.length >= RECORD_EVERY) record();
  };

  return {
    add,
    addSent(outcome, personUuid, momentumUuid) {
      sent.push({ personUuid, momentumUuid });
      add(outcome);
    },
    async finish() {
      finishing = true;
      record();
      while (recording) await recording;
      if (recordFailure) throw recordFailure;
    },
  };
}
