import { isValidMobilePhone, parsePhone } from '@brazilian-utils/brazilian-utils';
import type { ChannelAdapter, SendResult } from './channel.ts';
import {
  classifyStatus,
  createProviderClient,
  hasOptedOut,
  isAnswer,
  nonEmpty,
  providerMessage,
  skip,
} from './provider-http.ts';

/*
 * SMS through Zenvia's REST API (`POST {ZENVIA_API_URL}/services/send-sms`), the API whose credentials are a
 * login and a password: the channel stores them as the HTTP Basic token (READINGS A-19) and we send it as
 * `Authorization: Basic <token>`. Body `{ sendSmsRequest: { from, to, msg, id, callbackOption } }`; the answer
 * is `{ sendSmsResponse: { statusCode, statusDescription, detailCode, detailDescription } }`, statusCode 00–03
 * meaning accepted. `id` is the delivery id: Zenvia refuses an id it already has (detailCode 011), which we
 * read as "already sent", so a re-sent delivery (the at-least-once window) never reaches the phone twice.
 *
 * Length: this API sends one SMS of at most 160 characters and refuses longer texts (detailCode 013, "Message
 * content overflow"); we refuse them before calling, with the same rule, instead of cutting the text.
 * Assumption written down (not confirmable offline): the 160-character limit counts `msg` only, not `from`.
 */

export const SMS_MAX_CHARS = 160;
export const SMS_OPTOUT_ATTRIBUTES = ['sms.optout', 'identify.sms_optout'];

const PROVIDER = 'Zenvia';
/** Zenvia already has a message with this id: the delivery was sent before (a re-send after a crash). */
const ALREADY_SENT = '011';

/** A Brazilian mobile number as E.164 digits (55 + DDD + number), or undefined when it is not one. */
export function toE164Mobile(raw: string | null | undefined): string | undefined {
  if (!raw) return undefined;
  const digits = parsePhone(raw);
  return isValidMobilePhone(digits) ? `55${digits}` : undefined;
}

export interface ZenviaOptions {
  baseUrl: string;
  timeoutMs?: number;
}

export function createZenviaAdapter(options: ZenviaOptions): ChannelAdapter {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/services/send-sms`;
  const client = createProviderClient();
  return {
    type: 'ZENVIA',
    async send(delivery): Promise<SendResult> {
      const props = delivery.channelProperties;
      const token = nonEmpty(props.token);
      if (!token) return { ok: false, transient: false, reason: 'Canal Zenvia sem credenciais.' };
      if (hasOptedOut(delivery.person.attributes, SMS_OPTOUT_ATTRIBUTES))
        return skip('O visitante pediu para não receber SMS.');
      const to = toE164Mobile(delivery.person.phone);
      if (!to) return skip(delivery.person.phone ? 'Telefone do visitante inválido.' : 'Visitante sem telefone.');
      const msg = String(delivery.content.body ?? '').trim();
      if (!msg) return { ok: false, transient: false, reason: 'SMS sem texto.' };
      if ([...msg].length > SMS_MAX_CHARS)
        return {
          ok: false,
          transient: false,
          reason: `O SMS tem ${[...msg].length} caracteres; a Zenvia aceita até ${SMS_MAX_CHARS}.`,
        };
      const from = nonEmpty(props.sender);
      const answer = await client.post(
        PROVIDER,
        url,
        {
          headers: {
            authorization: `Basic ${token}`,
            'content-type': 'application/json',
            accept: 'application/json',
          },
          body: JSON.stringify({
            sendSmsRequest: { ...(from ? { from } : {}), to, msg, id: delivery.id, callbackOption: 'NONE' },
          }),
        },
        options.timeoutMs,
      );
      if (!isAnswer(answer)) return answer;
      let reply: { statusCode?: string; detailCode?: string; detailDescription?: string } | undefined;
      try {
        reply = (JSON.parse(answer.text) as { sendSmsResponse?: typeof reply }).sendSmsResponse;
      } catch {}
      const said = reply?.detailDescription ?? answer.text;
      if (answer.status < 200 || answer.status >= 300)
        return classifyStatus(PROVIDER, answer.status, answer.headers, said);
      if (!reply?.statusCode)
        return { ok: false, transient: true, reason: `Resposta inesperada da Zenvia: ${providerMessage(answer.text)}` };
      if (['00', '01', '02', '03'].includes(reply.statusCode) || reply.detailCode === ALREADY_SENT) return { ok: true };
      return {
        ok: false,
        transient: false,
        reason: `Zenvia recusou o SMS (${reply.statusCode}/${reply.detailCode ?? '?'}): ${providerMessage(said)}`,
      };
    },
    async close() {
      client.close();
    },
  };
}
