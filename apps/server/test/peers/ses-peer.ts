import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { json, type PeerRequest, type Reply, startHttpPeer } from './http-peer.ts';

/*
 * Amazon SES v2 on 127.0.0.1: `POST /v2/email/outbound-emails` (SendEmail) and `POST /v2/email/outbound-bulk-emails`
 * (SendBulkEmail with inline template content: up to 50 entries, simple {{name}} substitution from the template data
 * and each entry's replacement data, entry headers over template headers, default and entry tags; a status per
 * entry). Like SES it checks the SigV4
 * signature (written here from the AWS specification, not with the SDK's signer) against the secret of the access
 * key, the region and the service in the credential scope, the signed headers and the payload hash, and a
 * request date within 15 minutes; then it parses the SESv2 body and keeps the e-mail. Errors come back in
 * the REST-JSON shape the SDK reads (`x-amzn-ErrorType` and `{ message }`).
 */

export interface SesEmail {
  messageId: string;
  accessKeyId: string;
  region: string;
  from: string;
  to: string[];
  subject: string;
  html?: string;
  text?: string;
  headers: Record<string, string>;
  tags: Record<string, string>;
  /** Came in a SendBulkEmail call. */
  bulk: boolean;
  at: Date;
}

interface Header {
  Name: string;
  Value: string;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
const awsError = (status: number, type: string, message: string): Reply =>
  json(status, { message }, { 'x-amzn-errortype': type });

/** RFC 3986 encoding of a path segment, as SigV4 wants it (non-S3 services encode the already encoded path again). */
const encodeSegment = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export function verifySigV4(req: PeerRequest, secrets: Map<string, string>, service: string, now = Date.now()) {
  const auth = String(req.headers.authorization ?? '');
  const m = auth.match(
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/,
  );
  if (!m) return { ok: false as const, type: 'IncompleteSignature', message: 'Authorization header malformed.' };
  const [, accessKeyId, date, region, scopeService, signedHeaders, signature] = m as unknown as string[];
  const secret = secrets.get(accessKeyId!);
  if (!secret)
    return {
      ok: false as const,
      type: 'UnrecognizedClientException',
      message: 'The security token included in the request is invalid.',
    };
  if (scopeService !== service)
    return {
      ok: false as const,
      type: 'InvalidSignatureException',
      message: `Credential should be scoped to correct service: '${service}'.`,
    };
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  const when = Date.parse(amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
  if (!amzDate.startsWith(date!) || Number.isNaN(when) || Math.abs(now - when) > 15 * 60_000)
    return { ok: false as const, type: 'InvalidSignatureException', message: 'Signature expired or date mismatch.' };
  const names = signedHeaders!.split(';');
  if (!names.includes('host') || !names.includes('x-amz-date'))
    return { ok: false as const, type: 'InvalidSignatureException', message: 'host and x-amz-date must be signed.' };
  const payloadHash = sha256(req.body);
  const declared = req.headers['x-amz-content-sha256'];
  if (declared && declared !== 'UNSIGNED-PAYLOAD' && declared !== payloadHash)
    return {
      ok: false as const,
      type: 'InvalidSignatureException',
      message: 'The provided x-amz-content-sha256 header does not match.',
    };
  const url = new URL(req.path, 'http://peer');
  const canonicalPath = url.pathname
    .split('/')
    .map((s) => encodeSegment(decodeURIComponent(s)))
    .map(encodeSegment)
    .join('/');
  const query = [...url.searchParams]
    .map(([k, v]) => [encodeSegment(k), encodeSegment(v)])
    .sort(([a, x], [b, y]) => (a! < b! ? -1 : a! > b! ? 1 : x! < y! ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const headerLines = names
    .map((n) => {
      const v = req.headers[n];
      return `${n}:${(Array.isArray(v) ? v.join(',') : (v ?? '')).trim().replace(/\s+/g, ' ')}\n`;
    })
    .join('');
  const canonical = [req.method, canonicalPath, query, headerLines, signedHeaders, payloadHash].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date!), region!), service), 'aws4_request');
  const expected = hmac(key, toSign);
  const given = Buffer.from(signature!, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return {
      ok: false as const,
      type: 'SignatureDoesNotMatch',
      message: 'The request signature we calculated does not match the signature you provided.',
    };
  return { ok: true as const, accessKeyId: accessKeyId!, region: region! };
}

export async function startSesPeer(
  options: {
    credentials?: Record<string, string>;
    /** A fixed port (e2e: the server is configured before the peer starts); default any free port. */
    port?: number;
  } = {},
) {
  const secrets = new Map(Object.entries(options.credentials ?? {}));
  const received: SesEmail[] = [];
  const rejected = new Map<string, string>();
  let bulkCalls = 0;
  const validAddress = (a: string) => /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(a);
  const parse = <T>(req: PeerRequest): T | undefined => {
    try {
      return JSON.parse(req.body.toString('utf8')) as T;
    } catch {
      return undefined;
    }
  };
  const headersOf = (list: Header[] | undefined) => Object.fromEntries((list ?? []).map((h) => [h.Name, h.Value]));

  const sendEmail = (req: PeerRequest, signed: { accessKeyId: string; region: string }): Reply => {
    const body = parse<{
      FromEmailAddress?: string;
      Destination?: { ToAddresses?: string[] };
      Content?: {
        Simple?: {
          Subject?: { Data?: string };
          Body?: { Html?: { Data?: string }; Text?: { Data?: string } };
          Headers?: Header[];
        };
      };
      EmailTags?: Header[];
    }>(req);
    if (!body) return awsError(400, 'BadRequestException', 'Request body is not valid JSON.');
    const simple = body.Content?.Simple;
    const to = body.Destination?.ToAddresses ?? [];
    if (!body.FromEmailAddress) return awsError(400, 'BadRequestException', 'FromEmailAddress is required.');
    if (to.length === 0) return awsError(400, 'BadRequestException', 'At least one destination is required.');
    if (!simple?.Subject?.Data) return awsError(400, 'BadRequestException', 'Subject is required.');
    if (!simple.Body?.Html?.Data && !simple.Body?.Text?.Data)
      return awsError(400, 'BadRequestException', 'Body is required.');
    for (const address of to)
      if (!validAddress(address))
        return awsError(400, 'BadRequestException', `Invalid destination address: ${address}`);
    const refusal = to.map((a) => rejected.get(a)).find(Boolean);
    if (refusal) return awsError(400, 'MessageRejected', refusal);
    const email: SesEmail = {
      messageId: randomUUID(),
      accessKeyId: signed.accessKeyId,
      region: signed.region,
      from: body.FromEmailAddress,
      to,
      subject: simple.Subject.Data,
      ...(simple.Body.Html?.Data ? { html: simple.Body.Html.Data } : {}),
      ...(simple.Body.Text?.Data ? { text: simple.Body.Text.Data } : {}),
      headers: headersOf(simple.Headers),
      tags: headersOf(body.EmailTags),
      bulk: false,
      at: new Date(),
    };
    received.push(email);
    return json(200, { MessageId: email.messageId });
  };

  const sendBulkEmail = (req: PeerRequest, signed: { accessKeyId: string; region: string }): Reply => {
    const body = parse<{
      FromEmailAddress?: string;
      DefaultContent?: {
        Template?: {
          TemplateName?: string;
          TemplateContent?: { Subject?: string; Html?: string; Text?: string };
          TemplateData?: string;
          Headers?: Header[];
        };
      };
      DefaultEmailTags?: Header[];
      BulkEmailEntries?: {
        Destination?: { ToAddresses?: string[] };
        ReplacementTags?: Header[];
        ReplacementEmailContent?: { ReplacementTemplate?: { ReplacementTemplateData?: string } };
        ReplacementHeaders?: Header[];
      }[];
    }>(req);
    if (!body) return awsError(400, 'BadRequestException', 'Request body is not valid JSON.');
    const template = body.DefaultContent?.Template ?? {};
    const entries = body.BulkEmailEntries ?? [];
    if (!body.FromEmailAddress) return awsError(400, 'BadRequestException', 'FromEmailAddress is required.');
    if (template.TemplateName)
      return awsError(404, 'NotFoundException', `Template ${template.TemplateName} does not exist.`);
    const content = template.TemplateContent;
    if (!content?.Subject) return awsError(400, 'BadRequestException', 'Template content with a subject is required.');
    if (!content.Html && !content.Text) return awsError(400, 'BadRequestException', 'Template content needs a body.');
    if (entries.length === 0 || entries.length > 50)
      return awsError(400, 'BadRequestException', 'BulkEmailEntries must have between 1 and 50 entries.');
    let defaults: Record<string, unknown>;
    try {
      defaults = JSON.parse(template.TemplateData ?? '{}');
    } catch {
      return awsError(400, 'BadRequestException', 'TemplateData is not valid JSON.');
    }
    bulkCalls++;
    const results = entries.map((entry) => {
      const to = entry.Destination?.ToAddresses ?? [];
      if (to.length === 0 || !to.every(validAddress))
        return { Status: 'INVALID_PARAMETER', Error: `Invalid destination address: ${to.join(', ')}` };
      const refusal = to.map((a) => rejected.get(a)).find(Boolean);
      if (refusal) return { Status: 'MESSAGE_REJECTED', Error: refusal };
      let data: Record<string, unknown>;
      try {
        data = {
          ...defaults,
          ...JSON.parse(entry.ReplacementEmailContent?.ReplacementTemplate?.ReplacementTemplateData ?? '{}'),
        };
      } catch {
        return { Status: 'INVALID_PARAMETER', Error: 'ReplacementTemplateData is not valid JSON.' };
      }
      // Simple substitution, as SES does for inline template content; a variable without data is an error.
      const missing: string[] = [];
      const fill = (text: string) =>
        text.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (_, name: string) => {
          if (data[name] === undefined) missing.push(name);
          return String(data[name] ?? '');
        });
      const email: SesEmail = {
        messageId: randomUUID(),
        accessKeyId: signed.accessKeyId,
        region: signed.region,
        from: body.FromEmailAddress!,
        to,
        subject: fill(content.Subject!),
        ...(content.Html ? { html: fill(content.Html) } : {}),
        ...(content.Text ? { text: fill(content.Text) } : {}),
        headers: { ...headersOf(template.Headers), ...headersOf(entry.ReplacementHeaders) },
        tags: { ...headersOf(body.DefaultEmailTags), ...headersOf(entry.ReplacementTags) },
        bulk: true,
        at: new Date(),
      };
      if (missing.length)
        return { Status: 'FAILED', Error: `Attribute '${missing[0]}' is not present in the rendering data.` };
      received.push(email);
      return { Status: 'SUCCESS', MessageId: email.messageId };
    });
    return json(200, { BulkEmailEntryResults: results });
  };

  const peer = await startHttpPeer((req) => {
    const operation =
      req.method === 'POST' && req.path === '/v2/email/outbound-emails'
        ? sendEmail
        : req.method === 'POST' && req.path === '/v2/email/outbound-bulk-emails'
          ? sendBulkEmail
          : undefined;
    if (!operation) return awsError(404, 'NotFoundException', `Unknown operation ${req.method} ${req.path}`);
    const signed = verifySigV4(req, secrets, 'ses');
    if (!signed.ok) return awsError(403, signed.type, signed.message);
    return operation(req, signed);
  }, options.port);
  return {
    ...peer,
    received,
    /** SendBulkEmail calls answered (with their entries' statuses). */
    get bulkCalls() {
      return bulkCalls;
    },
    /** SES refuses e-mails to this address (MessageRejected; in bulk, that entry's status). */
    rejectAddress(address: string, message = 'Email address is on the suppression list.') {
      rejected.set(address, message);
    },
    /** Accepts this access key (its secret is what signatures are checked against). */
    addCredentials(accessKeyId: string, secretAccessKey: string) {
      secrets.set(accessKeyId, secretAccessKey);
    },
    /** The next `times` SendEmail calls fail with this SES error. */
    failWith(status: number, type: string, message: string, times = 1, headers: Record<string, string> = {}) {
      peer.respondWith(
        {
          status,
          headers: { 'content-type': 'application/json', 'x-amzn-errortype': type, ...headers },
          body: JSON.stringify({ message }),
        },
        times,
      );
    },
  };
}

export type SesPeer = Awaited<ReturnType<typeof startSesPeer>>;
