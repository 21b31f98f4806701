import { createHash } from 'node:crypto';
import type { ChannelAdapter, SendResult } from './channel.ts';
import { EMAIL_OPTOUT_ATTRIBUTES, isEmailAddress } from './email-content.ts';
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
 * E-mail marketing through Akna's HTTP integration API: one form POST to `{AKNA_API_URL}/emkt/int/integracao.php`
 * with `User`, `Pass`, `Client` and an `XML` document naming the operation. The message itself (HTML, images)
 * lives at Akna as the block's message_id inside the action action_id; we send who gets it and the sender fields.
 *
 * Assumptions, written down because Akna's documentation could not be confirmed offline:
 * - the channel's token is base64 of `login:password` (READINGS A-19); `Pass` is the password's MD5 in hex, as
 *   Akna's integration examples show;
 * - the operation is the transactional send `trans="19.10"`, with the fields below (one recipient per call);
 * - Akna answers HTTP 200 with `<RETURN ID="00">` on success; IDs 01 and 02 are "user/password invalid" and
 *   "client invalid" (credentials refused); any other ID is a refusal of this message, its text kept;
 * - the unsubscribe address goes in `<link_descadastro>` so the Akna template can show it.
 */

const PROVIDER = 'Akna';
const CREDENTIAL_RETURNS = new Set(['01', '02']);

const xmlEscape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

export function aknaXml(fields: Record<string, string | undefined>, recipient: { email: string; code: string }) {
  const tags = Object.entries(fields)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `<${k}>${xmlEscape(v!)}</${k}>`)
    .join('');
  return `<main><emkt trans="19.10">${tags}<destinatario><email>${xmlEscape(recipient.email)}</email><codigo>${xmlEscape(recipient.code)}</codigo></destinatario></emkt></main>`;
}

const fromBasicToken = (token: string) => {
  const plain = Buffer.from(token, 'base64').toString('utf8');
  const at = plain.indexOf(':');
  return at < 0 ? undefined : { login: plain.slice(0, at), password: plain.slice(at + 1) };
};

export interface AknaOptions {
  baseUrl: string;
  timeoutMs?: number;
}

export function createAknaAdapter(options: AknaOptions): ChannelAdapter {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/emkt/int/integracao.php`;
  const provider = createProviderClient();
  return {
    type: 'AKNA',
    async send(delivery): Promise<SendResult> {
      const p = delivery.channelProperties;
      const credentials = fromBasicToken(nonEmpty(p.token) ?? '');
      const client = nonEmpty(p.client);
      if (!credentials || !client) return { ok: false, transient: false, reason: 'Canal Akna sem credenciais.' };
      if (hasOptedOut(delivery.person.attributes, EMAIL_OPTOUT_ATTRIBUTES))
        return skip('O visitante cancelou o recebimento de e-mails.');
      const to = delivery.person.email;
      if (!isEmailAddress(to)) return skip(to ? 'E-mail do visitante inválido.' : 'Visitante sem e-mail.');
      const c = delivery.content;
      const field = (k: string) => nonEmpty(c[k]);
      for (const k of ['action_id', 'message_id', 'name_sender', 'mail_sender', 'subject'])
        if (!field(k)) return { ok: false, transient: false, reason: `Bloco Akna sem o campo ${k}.` };
      const xml = aknaXml(
        {
          acao: field('action_id'),
          mensagem: field('message_id'),
          nome_remetente: field('name_sender'),
          email_remetente: field('mail_sender'),
          assunto: field('subject'),
          email_retorno: field('mail_return'),
          link_descadastro: delivery.unsubscribeUrl,
        },
        { email: to, code: delivery.id },
      );
      const form = new URLSearchParams({
        User: credentials.login,
        Pass: createHash('md5').update(credentials.password, 'utf8').digest('hex'),
        Client: client,
        XML: xml,
      });
      const answer = await provider.post(
        PROVIDER,
        url,
        { headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }, body: form.toString() },
        options.timeoutMs,
      );
      if (!isAnswer(answer)) return answer;
      const ret = answer.text.match(/<RETURN\s+ID\s*=\s*"([^"]*)"\s*>([\s\S]*?)<\/RETURN>/i);
      if (answer.status < 200 || answer.status >= 300)
        return classifyStatus(PROVIDER, answer.status, answer.headers, ret?.[2] ?? answer.text);
      if (!ret)
        return { ok: false, transient: true, reason: `Resposta inesperada da Akna: ${providerMessage(answer.text)}` };
      const [, id, text] = ret;
      if (id === '00') return { ok: true };
      if (CREDENTIAL_RETURNS.has(id!))
        return {
          ok: false,
          transient: false,
          credentialsRefused: true,
          reason: `Credenciais recusadas pelo provedor (${PROVIDER}, ${id}): ${providerMessage(text!)}`,
        };
      return { ok: false, transient: false, reason: `Akna recusou o e-mail (${id}): ${providerMessage(text!)}` };
    },
    async close() {
      provider.close();
    },
  };
}
