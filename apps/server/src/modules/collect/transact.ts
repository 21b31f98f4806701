import { sql } from 'drizzle-orm';
import { type Db, dbErrorReason, isTransientDbError } from '../../db/client.ts';
import type { AppContext } from '../../lib/context.ts';

/** What `transact` ends with: the work's value, the database's refusal, or a database given up on while closing. */
export type Transacted<T> = { ok: true; value: T } | { ok: false; refused: unknown } | { ok: false; away: true };
export type Transact = <T>(work: (db: Db) => Promise<T>) => Promise<Transacted<T>>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The ingestor's way into the database, and its watch over outages. `transact` runs `work` in one transaction until
 * the database gives an answer. A database that does not answer (restarting, unreachable) is waited for without
 * limit, with a backoff capped at 5 s: the spool holds what arrives meanwhile. A transient refusal (deadlock, too
 * many connections) is tried 5 times. Anything else the database refused comes back as `refused`. Once `closing`,
 * an absent database is given up after 3 tries (`away`).
 */
export function createTransactor(ctx: AppContext) {
  let closing = false;
  let outageSince: number | undefined;
  let outages = 0;
  let lastOutageSeconds = 0;

  /** True when the database answers a trivial query: a failure was then about the data, not the connection. */
  const databaseAnswers = () =>
    ctx.db.execute(sql`SELECT 1`).then(
      () => true,
      () => false,
    );

  const transact: Transact = async (work) => {
    let answered = 0;
    for (let attempt = 1; ; attempt++) {
      try {
        const value = await ctx.db.transaction((tx) => work(tx as unknown as Db));
        if (outageSince !== undefined) {
          lastOutageSeconds = (Date.now() - outageSince) / 1000;
          outageSince = undefined;
          ctx.log.warn({ seconds: lastOutageSeconds }, 'coletor: banco de volta; gravando o que esperou');
        }
        return { ok: true, value };
      } catch (err) {
        const away = !(await databaseAnswers());
        if (!away && (!isTransientDbError(err) || ++answered >= 5)) return { ok: false, refused: err };
        if (away && outageSince === undefined) {
          outageSince = Date.now();
          outages++;
          ctx.log.warn(
            { reason: dbErrorReason(err) },
            'coletor: banco indisponível; os eventos aceitos esperam no spool e são gravados quando ele voltar',
          );
        }
        if (closing && attempt >= 3) return { ok: false, away: true };
        await sleep(Math.min(5000, 100 * 2 ** Math.min(attempt, 6)) * (0.5 + Math.random() / 2));
      }
    }
  };

  return {
    transact,
    /** From now on a database that stays away no longer holds the process; its batches wait in the spool. */
    close() {
      closing = true;
    },
    /** Times the database went away while batches waited, whether it is away now, the last one's length. */
    outages: () => ({ count: outages, away: outageSince !== undefined, lastSeconds: lastOutageSeconds }),
  };
}
