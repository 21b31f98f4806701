import { USAGE_CHANNELS, type Usage } from '@impeto/shared';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client.ts';
import type { AppContext } from '../../lib/context.ts';

const num = (v: unknown) => Number(v ?? 0);

/** The month as São Paulo sees it today (the rollups' days are São Paulo days). */
export const currentMonth = (now: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit' }).format(now);

/**
 * /payment: the self-hosted plan and one month's usage per domain of the company. Events and visitors come from
 * the collector's daily rollups (daily_stats, daily_visitors: one indexed range read each); messages are the
 * deliveries sent that month per channel.
 */
export async function usageOf(
  ctx: AppContext,
  companyUuid: string,
  month = currentMonth(ctx.clock.now()),
): Promise<Usage> {
  const start = `${month}-01`;
  const domains = await queryRows<{ uuid: string; name: string }>(
    ctx.db,
    sql`SELECT uuid, name FROM domains WHERE company_uuid = ${companyUuid}::uuid AND removed_at IS NULL ORDER BY name`,
  );
  const rows = await Promise.all(
    domains.map(async (d) => {
      const [stats] = await queryRows<{ events: string; pageviews: string }>(
        ctx.db,
        sql`SELECT coalesce(sum(count) FILTER (WHERE dimension IN ('pageviews', 'event', 'optins', 'optouts')), 0) AS events,
                   coalesce(sum(count) FILTER (WHERE dimension = 'pageviews'), 0) AS pageviews
            FROM daily_stats
            WHERE domain_uuid = ${d.uuid}::uuid AND day >= ${start}::date AND day < (${start}::date + interval '1 month')
              AND dimension IN ('pageviews', 'event', 'optins', 'optouts')`,
      );
      const [visitors] = await queryRows<{ n: string }>(
        ctx.db,
        sql`SELECT count(DISTINCT person_uuid) AS n FROM daily_visitors
            WHERE domain_uuid = ${d.uuid}::uuid AND day >= ${start}::date AND day < (${start}::date + interval '1 month')`,
      );
      const sent = await queryRows<{ channel: string; n: string }>(
        ctx.db,
        sql`SELECT channel_type AS channel, count(*) AS n FROM deliveries
            WHERE domain_uuid = ${d.uuid}::uuid AND sent_at IS NOT NULL
              AND sent_at >= (${start}::date::timestamp AT TIME ZONE 'America/Sao_Paulo')
              AND sent_at < ((${start}::date + interval '1 month')::timestamp AT TIME ZONE 'America/Sao_Paulo')
            GROUP BY channel_type`,
      );
      const messages = Object.fromEntries(USAGE_CHANNELS.map((c) => [c, 0])) as Record<string, number>;
      for (const s of sent) messages[s.channel] = num(s.n);
      return {
        domain_uuid: d.uuid,
        name: d.name,
        events: num(stats?.events),
        pageviews: num(stats?.pageviews),
        visitors: num(visitors?.n),
        messages,
        messages_total: Object.values(messages).reduce((a, b) => a + b, 0),
      };
    }),
  );
  return { plan: 'self_hosted', month, domains: rows };
}
