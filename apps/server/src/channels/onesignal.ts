import type { ChannelAdapter, SendResult } from './channel.ts';
import { classifyStatus, createProviderClient, isAnswer, nonEmpty, providerMessage, skip } from './provider-http.ts';

/*
 * Push through OneSignal's REST API: `POST {ONESIGNAL_API_URL}/notifications` with `Authorization: Key <REST API
 * key>` (the channel's oneSignalApiId) and the channel's app id. The person is targeted by external id: the id
 * the site gave us with `gero('identify', { external_id })` (and OneSignal with `OneSignal.login(external_id)`),
 * else our visitor id. `idempotency_key` is the delivery id, so a re-send after a crash is dropped by OneSignal.
 * A 200 answer without a notification id and with errors means the person has no OneSignal subscription: skipped.
 */

const PROVIDER = 'OneSignal';

export interface OneSignalOptions {
  baseUrl: string;
  timeoutMs?: number;
}

/** The external id OneSignal knows this person by. */
export const oneSignalExternalId = (person: { visitorId: string; attributes: Record<string, unknown> }) =>
  nonEmpty(person.attributes['identify.external_id']) ?? person.visitorId;

export function createOneSignalAdapter(options: OneSignalOptions): ChannelAdapter {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/notifications`;
  const client = createProviderClient();
  return {
    type: 'ONE_SIGNAL',
    async send(delivery): Promise<SendResult> {
      const appId = nonEmpty(delivery.channelProperties.oneSignalAppId);
      const apiKey = nonEmpty(delivery.channelProperties.oneSignalApiId);
      if (!appId || !apiKey) return { ok: false, transient: false, reason: 'Canal OneSignal sem app id ou chave.' };
      const c = delivery.content;
      const title = nonEmpty(c.title);
      const pt = nonEmpty(c.message_pt);
      const en = nonEmpty(c.message_en);
      if (!title || !pt || !en)
        return {
          ok: false,
          transient: false,
          reason: 'Bloco OneSignal sem título ou mensagens em português e inglês.',
        };
      const image = nonEmpty(c.web_image);
      const answer = await client.post(
        PROVIDER,
        url,
        {
          headers: {
            authorization: `Key ${apiKey}`,
            'content-type': 'application/json; charset=utf-8',
            accept: 'application/json',
          },
          body: JSON.stringify({
            app_id: appId,
            target_channel: 'push',
            include_aliases: { external_id: [oneSignalExternalId(delivery.person)] },
            headings: { en: title, pt: title },
            contents: { en, pt },
            ...(nonEmpty(c.url) ? { url: nonEmpty(c.url) } : {}),
            ...(image ? { chrome_web_image: image } : {}),
            idempotency_key: delivery.id,
          }),
        },
        options.timeoutMs,
      );
      if (!isAnswer(answer)) return answer;
      let reply: { id?: string; errors?: unknown } = {};
      try {
        reply = JSON.parse(answer.text);
      } catch {}
      const errors = reply.errors ? JSON.stringify(reply.errors) : answer.text;
      if (answer.status < 200 || answer.status >= 300)
        return classifyStatus(PROVIDER, answer.status, answer.headers, errors);
      if (reply.id) return { ok: true };
      if (reply.errors) return skip(`Visitante sem inscrição no OneSignal: ${providerMessage(errors)}`);
      return {
        ok: false,
        transient: true,
        reason: `Resposta inesperada do OneSignal: ${providerMessage(answer.text)}`,
      };
    },
    async close() {
      client.close();
    },
  };
}
