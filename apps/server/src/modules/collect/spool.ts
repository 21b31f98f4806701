import { createHash, randomUUID } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { unlink } from 'node:fs/promises';
import path from 'node:path';

/** A file of accepted requests, one JSON line each; its id names it and marks its batch as stored in the database. */
export interface SpoolSegment {
  id: string;
  file: string;
}

const SEGMENT = /^([0-9a-f-]{36})\.seg$/;
const OWNED = /^(\d+)-[0-9a-f-]{36}$/;

/** The folders of the spools open in this process (tests open several apps in one process). */
const ownFolders = new Set<string>();

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const segmentsIn = (dir: string): SpoolSegment[] =>
  readdirSync(dir)
    .map((name) => SEGMENT.exec(name)?.[1])
    .filter((id): id is string => id !== undefined)
    .map((id) => ({ id, file: path.join(dir, `${id}.seg`) }));

/** The folder of one database's spool under the spool's root (its name hides the database's address). */
export const spoolDatabaseFolder = (root: string, database: string) =>
  path.join(root, createHash('sha256').update(database).digest('hex').slice(0, 16));

/**
 * The collector's write-ahead spool: each accepted request is appended to a local file before the 202, so
 * events still waiting for the database survive a crash of the process (not of the machine: no fsync).
 *
 * Layout: `<root>/<database>/<pid>-<uuid>/<segment>.seg`. The database part keeps one database's events out of
 * another's; the folder name says which process owns it, so a later process claims the folders of dead ones
 * with an atomic rename and replays them (`orphans`). A folder named with this process's own pid that this
 * process did not open is a previous life's (a container restarted with the same pid) and is claimed too. The
 * folder belongs to one machine (or container): pids mean nothing across machines.
 *
 * `<root>/<database>/quarantine/` keeps the requests the database refused (each with the reason), taken out of their
 * batch so that the rest is stored; nothing replays them.
 */
export function createSpool(root: string, database: string) {
  const base = spoolDatabaseFolder(root, database);
  const ownName = () => `${process.pid}-${randomUUID()}`;
  const dir = path.join(base, ownName());
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new Error(
      `COLLECT_SPOOL: não foi possível criar a pasta ${dir} (${(err as NodeJS.ErrnoException).code}); ` +
        'indique uma pasta gravável ou use COLLECT_SPOOL=off para guardar os eventos só em memória.',
    );
  }
  ownFolders.add(dir);
  type Open = SpoolSegment & { fd: number; pending: string[] };
  /** The segment of the batch held in memory, and the one of requests kept on disk only (memory full). */
  let current: Open | undefined;
  let overflow: Open | undefined;
  const claimed: string[] = [];

  const open = (): Open => {
    const id = randomUUID();
    const file = path.join(dir, `${id}.seg`);
    return { id, file, fd: openSync(file, 'a'), pending: [] };
  };
  /** Writes a segment's buffered lines in one system call. */
  const write = (segment: Open | undefined) => {
    if (!segment?.pending.length) return;
    const text = segment.pending.join('');
    segment.pending = [];
    writeSync(segment.fd, text);
  };
  const close = (segment: Open | undefined): SpoolSegment | undefined => {
    if (!segment) return undefined;
    try {
      write(segment);
    } finally {
      closeSync(segment.fd);
    }
    return { id: segment.id, file: segment.file };
  };

  // Group commit: the lines of every request read in one turn of the event loop go to disk together (setImmediate),
  // and the collector answers those requests once they are written (`committed`).
  let commit: { promise: Promise<void>; resolve: () => void; reject: (err: unknown) => void } | undefined;
  let failure: unknown;
  const schedule = () => {
    if (commit) return;
    let resolve!: () => void;
    let reject!: (err: unknown) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    commit = { promise, resolve, reject };
    setImmediate(() => {
      const done = commit!;
      commit = undefined;
      try {
        write(current);
        write(overflow);
      } catch (err) {
        failure ??= err;
      }
      if (failure) done.reject(failure);
      else done.resolve();
      failure = undefined;
    });
  };

  const quarantineDir = path.join(base, 'quarantine');

  return {
    dir,
    quarantineDir,
    /** Keeps a request the database refused, with the reason, as `<quarantine>/<name>.json` (the same name overwrites). */
    quarantine(name: string, content: unknown) {
      mkdirSync(quarantineDir, { recursive: true });
      const file = path.join(quarantineDir, `${name}.json`);
      writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`);
      return file;
    },
    /** Buffers one line for the open segment (opened on demand); `committed` tells when it is on disk. */
    append(line: string) {
      current ??= open();
      current.pending.push(`${line}\n`);
      schedule();
    },
    /** Closes the open segment and returns it: everything appended since the last seal is one batch. */
    seal(): SpoolSegment | undefined {
      const segment = current;
      current = undefined;
      try {
        return close(segment);
      } catch (err) {
        failure ??= err;
        return segment && { id: segment.id, file: segment.file };
      }
    },
    /** Buffers one line for the overflow segment: a request kept on disk only until the process has room. */
    defer(line: string) {
      overflow ??= open();
      overflow.pending.push(`${line}\n`);
      schedule();
    },
    /** Closes the overflow segment: its lines become one batch, read back from disk later. */
    sealDeferred(): SpoolSegment | undefined {
      const segment = overflow;
      overflow = undefined;
      try {
        return close(segment);
      } catch (err) {
        failure ??= err;
        return segment && { id: segment.id, file: segment.file };
      }
    },
    /** Resolves once every line buffered so far is written; rejects when the disk refused some. */
    committed(): Promise<void> {
      return commit?.promise ?? Promise.resolve();
    },
    /** The batch is in the database: its segment goes. */
    async done(segment: SpoolSegment) {
      await unlink(segment.file).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
    },
    /** Claims the folders of processes that are gone and lists their segments (oldest folder first). */
    orphans(): SpoolSegment[] {
      let names: string[];
      try {
        names = readdirSync(base);
      } catch {
        return [];
      }
      const found: SpoolSegment[] = [];
      for (const name of names) {
        const pid = Number(OWNED.exec(name)?.[1]);
        if (!pid || ownFolders.has(path.join(base, name)) || (pid !== process.pid && alive(pid))) continue;
        const mine = path.join(base, ownName());
        try {
          renameSync(path.join(base, name), mine);
        } catch {
          continue; // another process claimed it first
        }
        claimed.push(mine);
        ownFolders.add(mine);
        found.push(...segmentsIn(mine));
      }
      return found;
    },
    /** Reads a segment's lines; a line cut short by a crash mid-write is skipped and counted. */
    read(segment: SpoolSegment) {
      const lines: unknown[] = [];
      let broken = 0;
      for (const line of readFileSync(segment.file, 'utf8').split('\n')) {
        if (!line) continue;
        try {
          lines.push(JSON.parse(line));
        } catch {
          broken++;
        }
      }
      return { lines, broken };
    },
    /** After a drain: removes this process's folder and the claimed ones when nothing is left in them. */
    close() {
      this.seal();
      this.sealDeferred();
      for (const folder of [dir, ...claimed]) {
        ownFolders.delete(folder);
        try {
          rmdirSync(folder);
        } catch {
          // Not empty: a batch not stored when the process stopped (database away) stays for the next start.
        }
      }
    },
  };
}
export type Spool = ReturnType<typeof createSpool>;
