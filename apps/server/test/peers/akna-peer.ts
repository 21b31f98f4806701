import { createHash } from 'node:crypto';
import { startHttpPeer } from './http-peer.ts';

/*
 * Akna's HTTP integration API on 127.0.0.1: `POST /emkt/int/integracao.php`, a form with User, Pass (MD5 of the
 * password), Client and XML. It checks the user, password and client (RETURN ID 01/02 otherwise), the XML's
 * operation and required fields, and answers `<main><emkt trans="19.10"><RETURN ID="00">Ok</RETURN></emkt></main>`.
 * The protocol details are the assumptions written in src/channels/akna.ts.
 */

export interface AknaEmail {
  client: string;
  user: string;
  fields: Record<string, string>;
  to: string;
  code: string;
  at: Date;
}

const answer = (id: string, text: string) => ({
  status: 200,
  headers: { 'content-type': 'text/xml; charset=utf-8' },
  body: `<?xml version="1.0" encoding="UTF-8"?><main><emkt trans="19.10"><RETURN ID="${id}">${text}</RETURN></emkt></main>`,
});

const unescapeXml = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

const REQUIRED = ['acao', 'mensagem', 'nome_remetente', 'email_remetente', 'assunto'];

export async function startAknaPeer(options: { accounts?: { user: string; password: string; client: string }[] } = {}) {
  const accounts = [...(options.accounts ?? [])];
  const received: AknaEmail[] = [];
  const peer = await startHttpPeer((req) => {
    if (req.method !== 'POST' || req.path !== '/emkt/int/integracao.php') return { status: 404, body: 'not found' };
    if (!String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded'))
      return answer('99', 'Formato de requisição inválido');
    const form = new URLSearchParams(req.body.toString('utf8'));
    const user = form.get('User') ?? '';
    const account = accounts.find(
      (a) => a.user === user && createHash('md5').update(a.password).digest('hex') === form.get('Pass'),
    );
    if (!account) return answer('01', 'Usuário ou senha inválidos');
    if (account.client !== form.get('Client')) return answer('02', 'Cliente inválido');
    const xml = form.get('XML') ?? '';
    if (!/^<main><emkt trans="19\.10">[\s\S]*<\/emkt><\/main>$/.test(xml)) return answer('03', 'XML inválido');
    const fields: Record<string, string> = {};
    for (const [, tag, value] of xml.matchAll(/<([a-z_]+)>([^<]*)<\/\1>/g)) fields[tag!] = unescapeXml(value!);
    for (const f of REQUIRED) if (!fields[f]) return answer('04', `Campo obrigatório ausente: ${f}`);
    if (!fields.email || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(fields.email))
      return answer('05', 'E-mail do destinatário inválido');
    received.push({
      client: account.client,
      user,
      fields,
      to: fields.email,
      code: fields.codigo ?? '',
      at: new Date(),
    });
    return answer('00', 'Ok');
  });
  return {
    ...peer,
    received,
    addAccount(user: string, password: string, client: string) {
      accounts.push({ user, password, client });
    },
  };
}

export type AknaPeer = Awaited<ReturnType<typeof startAknaPeer>>;
