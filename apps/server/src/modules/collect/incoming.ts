import type { CollectEvent } from '@impeto/shared';
import type { AppContext } from '../../lib/context.ts';
import type { GeoInfo } from '../../lib/geo.ts';
import type { DeviceInfo } from '../../lib/user-agent.ts';
import type { Spool, SpoolSegment } from './spool.ts';

/** What one accepted request told us about its sender (raw IP already turned into geo), and its events. */
export interface IncomingRequest {
  domainUuid: string;
  /** Absent on the service worker's reports (viewed, clicked, a changed subscription). */
  visitorId?: string;
  device: DeviceInfo;
  geo: GeoInfo;
  language?: string;
  /** The browser's IANA zone, as the tag reported it (issue #27). */
  timezone?: string;
  receivedAt: Date;
  events: CollectEvent[];
}

/** One accepted event with its request's sender. */
export interface IncomingEvent extends Omit<IncomingRequest, 'events'> {
  event: CollectEvent;
}

/** An event of a request that names its visitor (the service worker's reports name none). */
export type VisitorEvent = IncomingEvent & { visitorId: string };

/** Requests written together in one transaction; with a spool, the segment that holds them is their identity. */
export interface Batch {
  requests: IncomingRequest[];
  events: number;
  segment?: SpoolSegment;
}

export const eventsOf = ({ events, ...sender }: IncomingRequest): IncomingEvent[] =>
  events.map((event) => ({ ...sender, event }));

export const eventCount = (requests: IncomingRequest[]) => requests.reduce((n, r) => n + r.events.length, 0);

/**
 * A spool segment's requests (a line cut by a crash is skipped and logged); undefined when the file cannot be
 * read: it stays where it is, for the next start.
 */
export function requestsInSegment(log: AppContext['log'], spool: Spool, segment: SpoolSegment) {
  let read: ReturnType<Spool['read']>;
  try {
    read = spool.read(segment);
  } catch (err) {
    log.error({ err, file: segment.file }, 'coletor: lote do spool ilegível; fica para a próxima partida');
    return undefined;
  }
  if (read.broken) log.warn({ file: segment.file, broken: read.broken }, 'coletor: linhas cortadas no spool ignoradas');
  return (read.lines as IncomingRequest[]).map((r) => ({ ...r, receivedAt: new Date(r.receivedAt) }));
}
