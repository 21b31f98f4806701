import { ONSITE_MODES, ONSITE_TYPES, type OnsiteMessage } from '@impeto/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { Clock } from '../lib/context.ts';
import type { ChannelAdapter } from './channel.ts';

/**
 * On-site messages (SUPERARE_WEBVIEW): "sending" puts the message in the person's on-site queue; the tag
 * takes it on its next collect or poll, renders it (texts and colours only, never HTML) and reports
 * viewed and clicked like the service worker does.
 */
export function createOnsiteAdapter(
  db: Db,
  clock: Clock,
  onQueued: (domainUuid: string, visitorId: string) => void,
): ChannelAdapter {
  return {
    type: 'SUPERARE_WEBVIEW',
    async send(delivery) {
      const c = delivery.content;
      const type = String(c.webview_type ?? '');
      if (!(ONSITE_TYPES as readonly string[]).includes(type)) {
        return { ok: false, transient: false, reason: 'Tipo de mensagem on-site desconhecido.' };
      }
      const mode = (ONSITE_MODES as readonly string[]).includes(String(c.webview_mode))
        ? (c.webview_mode as OnsiteMessage['mode'])
        : 'devices_all';
      const props = Object.fromEntries(
        Object.entries((c.webview_props as Record<string, unknown> | undefined) ?? {}).filter(
          ([, v]) => typeof v === 'string',
        ),
      ) as Record<string, string>;
      const message: OnsiteMessage = { d: delivery.id, type: type as OnsiteMessage['type'], mode, props };
      const expires = new Date(clock.now().getTime() + delivery.ttlSeconds * 1000);
      await db.execute(sql`
        INSERT INTO onsite_queue (delivery_id, domain_uuid, person_uuid, payload, expires_at, created_at)
        VALUES (${delivery.id}::uuid, ${delivery.domain.uuid}::uuid, ${delivery.person.uuid}::uuid,
                ${JSON.stringify(message)}::jsonb, ${expires}, ${clock.now()})
        ON CONFLICT (delivery_id) DO NOTHING`);
      onQueued(delivery.domain.uuid, delivery.person.visitorId);
      return { ok: true };
    },
  };
}
