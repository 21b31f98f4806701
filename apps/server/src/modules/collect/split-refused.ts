import { randomUUID } from 'node:crypto';
import { dbErrorReason } from '../../db/client.ts';
import type { StoredEvent } from '../../engine/matcher.ts';
import type { AppContext } from '../../lib/context.ts';
import { claimRequests, markSplit, requestMark, splitMark } from './batch-marks.ts';
import type { HandOver } from './hand-over.ts';
import { eventsOf, type IncomingRequest } from './incoming.ts';
import type { Quarantine } from './quarantine.ts';
import type { SpoolSegment } from './spool.ts';
import type { Transact } from './transact.ts';
import type { WriteBatch } from './write-batch.ts';

/** What a split stored: events stored now, events to match (stored now or before), marks to delete once the file goes. */
export interface SplitResult {
  fresh: number;
  matched: StoredEvent[];
  marks: string[];
}

/**
 * Stores a refused batch by halves, each in its own transaction, down to the single request the database refuses
 * (tried twice, in case the first refusal was a connection lost mid-way), which is quarantined. On a segment, each
 * request is marked in the transaction that stores it, after a mark saying the segment is being split: a process
 * that dies half-way is followed by one that stores only the requests still missing. Undefined: the process stops
 * while the database is away (the segment stays for the next start).
 */
export function createSplitter(
  ctx: AppContext,
  stages: {
    transact: Transact;
    write: WriteBatch;
    storedAgain: HandOver['storedAgain'];
    quarantine: Quarantine['put'];
  },
) {
  const { transact, write, storedAgain, quarantine } = stages;
  return async (
    requests: IncomingRequest[],
    segment: SpoolSegment | undefined,
    cause?: unknown,
  ): Promise<SplitResult | undefined> => {
    if (cause !== undefined) {
      ctx.log.warn(
        { reason: dbErrorReason(cause), requests: requests.length, file: segment?.file },
        'coletor: o banco recusou um lote; dividindo-o para isolar a requisição recusada',
      );
    }
    const marks: string[] = [];
    if (segment) {
      const marked = await transact((db) => markSplit(db, segment));
      if (!marked.ok) return undefined;
      marks.push(splitMark(segment));
    }
    let fresh = 0;
    const matched: StoredEvent[] = [];
    const storeRange = async (lo: number, hi: number, tries = 1): Promise<boolean> => {
      const indices = Array.from({ length: hi - lo }, (_, i) => lo + i);
      const result = await transact(async (db) => {
        const mine = segment ? await claimRequests(db, segment, indices) : indices;
        const events = mine.flatMap((i) => eventsOf(requests[i]!));
        const storedNow: StoredEvent[] = [];
        await write(db, events, storedNow);
        return { mine, storedNow, count: events.length };
      });
      if (result.ok) {
        fresh += result.value.count;
        matched.push(...result.value.storedNow);
        const mine = new Set(result.value.mine);
        matched.push(
          ...(await storedAgain(indices.filter((i) => !mine.has(i)).flatMap((i) => eventsOf(requests[i]!)))),
        );
        return true;
      }
      if ('away' in result) return false;
      if (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        return (await storeRange(lo, mid)) && (await storeRange(mid, hi));
      }
      if (tries < 2) return storeRange(lo, hi, tries + 1);
      quarantine(requests[lo]!, segment ? `${segment.id}-${lo}` : `${randomUUID()}-${lo}`, result.refused);
      return true;
    };
    const done =
      cause !== undefined && requests.length > 1
        ? (await storeRange(0, requests.length >> 1)) && (await storeRange(requests.length >> 1, requests.length))
        : await storeRange(0, requests.length, cause !== undefined ? 2 : 1);
    if (!done) return undefined;
    if (segment) marks.push(...requests.map((_, i) => requestMark(segment, i)));
    return { fresh, matched, marks };
  };
}
export type StoreSplit = ReturnType<typeof createSplitter>;
