import pg from 'pg';
import type { AppContext } from '../lib/context.ts';

/**
 * The engine's LISTEN (PostgreSQL only), on its own connection: another process changed a momentum of a domain
 * (`impeto_momentums`) or queued deliveries due now (`impeto_deliveries`). A lost connection (a database restart)
 * is opened again with a backoff; what was notified meanwhile is unknown, so `reconnected` is called once it is back.
 */
export function createNotifyListener(
  ctx: Pick<AppContext, 'database' | 'log'>,
  on: { momentumChanged(domainUuid: string): void; deliveriesDue(): void; reconnected(): void },
) {
  const { log } = ctx;
  let listening = false;
  let listener: pg.Client | undefined;

  const open = async (url: string) => {
    const client = new pg.Client({ connectionString: url });
    // Until connected, connect() reports the failure; afterwards a lost connection is reopened.
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('LISTEN impeto_momentums');
      await client.query('LISTEN impeto_deliveries');
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
    if (!listening) {
      await client.end().catch(() => {});
      return;
    }
    client.on('notification', (n) => {
      if (n.channel === 'impeto_momentums' && n.payload) on.momentumChanged(n.payload);
      else if (n.channel === 'impeto_deliveries') on.deliveriesDue();
    });
    let lost = false;
    const reopen = (err?: Error) => {
      if (lost) return;
      lost = true;
      void client.end().catch(() => {});
      if (!listening) return;
      log.warn({ err }, 'LISTEN do motor caiu; reconectando');
      const retry = (delay: number) =>
        setTimeout(() => {
          if (!listening) return;
          open(url).then(
            () => on.reconnected(),
            () => retry(Math.min(delay * 2, 5000)),
          );
        }, delay).unref();
      retry(250);
    };
    client.on('error', reopen);
    client.on('end', () => reopen());
    listener = client;
  };

  return {
    async start() {
      if (ctx.database.kind !== 'postgres' || !ctx.database.url) return;
      listening = true;
      await open(ctx.database.url);
    },
    async stop() {
      listening = false;
      await listener?.end().catch(() => {});
    },
  };
}
