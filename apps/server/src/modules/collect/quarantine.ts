import { dbErrorReason } from '../../db/client.ts';
import type { AppContext } from '../../lib/context.ts';
import type { IncomingRequest } from './incoming.ts';
import type { Spool } from './spool.ts';

/**
 * Keeps a request the database refused out of the way (`<spool>/<database>/quarantine/<name>.json`, with the
 * reason); nothing replays it. Without a spool it is only logged.
 */
export function createQuarantine(ctx: AppContext, spool: Spool | undefined) {
  let quarantined = 0;
  return {
    put(request: IncomingRequest, name: string, err: unknown) {
      quarantined += request.events.length;
      const reason = dbErrorReason(err);
      let file: string | undefined;
      if (spool) {
        try {
          file = spool.quarantine(name, { reason, quarantinedAt: new Date().toISOString(), request });
        } catch (writeErr) {
          ctx.log.error({ err: writeErr }, 'coletor: falha ao gravar a quarentena');
        }
      }
      ctx.log.error(
        { reason, file, domainUuid: request.domainUuid, events: request.events.length },
        'coletor: requisição recusada pelo banco posta em quarentena; as demais do lote foram gravadas',
      );
    },
    /** Events of the requests quarantined so far. */
    count: () => quarantined,
  };
}
export type Quarantine = ReturnType<typeof createQuarantine>;
