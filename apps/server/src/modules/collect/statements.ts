/** Rows per multi-row statement (persons, catalogue pairs); the rollups send five times as many. */
export const ROWS_PER_STATEMENT = 1000;
/** Events per INSERT INTO events. */
export const EVENTS_PER_STATEMENT = 5000;

export const chunk = <T>(list: T[], size: number) => {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
};

/** Rows sorted by their key, so concurrent batches lock the same rows in the same order (no deadlock). */
export const byKey = <T>(entries: Map<string, T>) =>
  [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
