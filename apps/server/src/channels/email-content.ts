import sanitizeHtml from 'sanitize-html';

/*
 * What an e-mail channel does to the block's body before it leaves: the HTML is sanitised (no script, no event
 * handler, no javascript: link, no form or frame; inline styles, tables and images kept, since e-mail clients
 * need them), a plain-text part is generated from it, and an unsubscribe footer is added to both.
 */

const SAFE_HTML: sanitizeHtml.IOptions = {
  allowedTags: [
    ...sanitizeHtml.defaults.allowedTags,
    'img',
    'center',
    'font',
    'span',
    'div',
    'table',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'td',
    'th',
  ],
  allowedAttributes: {
    '*': ['style', 'align', 'valign', 'width', 'height', 'bgcolor', 'color', 'class', 'dir', 'title'],
    a: ['href', 'name', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height', 'border'],
    table: ['border', 'cellpadding', 'cellspacing', 'role'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan'],
    font: ['face', 'size', 'color'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https', 'cid'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
};

export const sanitizeEmailHtml = (html: string) => sanitizeHtml(html, SAFE_HTML);

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
const decodeEntities = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
    if (code[0] === '#') {
      const n = code[1] === 'x' || code[1] === 'X' ? Number.parseInt(code.slice(2), 16) : Number(code.slice(1));
      return Number.isFinite(n) && n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : whole;
    }
    return ENTITIES[code.toLowerCase()] ?? whole;
  });

/** A readable plain-text version of (already sanitised) HTML: blocks become lines, links keep their address. */
export function htmlToText(html: string): string {
  const marked = html
    .replace(/<a\b[^>]*\bhref\s*=\s*"([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi, (_, href: string, label: string) => {
      const text = label.replace(/<[^>]*>/g, '').trim();
      return text && text !== href ? `${text} (${href})` : href;
    })
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '\n• ')
    .replace(/<\/(p|div|h[1-6]|tr|table|ul|ol|blockquote|center)>/gi, '\n\n')
    .replace(/<\/t[dh]>/gi, '\t');
  const text = decodeEntities(sanitizeHtml(marked, { allowedTags: [], allowedAttributes: {} }));
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export const UNSUBSCRIBE_LABEL = 'Não quero mais receber estes e-mails';

const rendered = new Map<string, { html: string; text: string }>();
const RENDER_CACHE = 200;

/** The sanitised HTML and the text part of a block's body; a campaign renders its one body once, not per person. */
function renderBody(body: string) {
  const hit = rendered.get(body);
  if (hit) return hit;
  // HTML when it has a real HTML tag; a plain text that mentions '<something>' stays text.
  const looksHtml =
    /<\/?(p|br|div|span|a|b|i|u|strong|em|h[1-6]|table|tr|td|img|ul|ol|li|html|body|center|font)\b[^>]*>/i.test(body);
  const html = looksHtml ? sanitizeEmailHtml(body) : `<p>${escapeHtml(body).replace(/\n/g, '<br>')}</p>`;
  const parts = { html, text: looksHtml ? htmlToText(html) : body.trim() };
  if (rendered.size >= RENDER_CACHE) rendered.delete(rendered.keys().next().value as string);
  rendered.set(body, parts);
  return parts;
}

/** The e-mail's HTML and text parts, with the unsubscribe link at the end of each. */
export function emailParts(body: string, unsubscribeUrl: string | undefined) {
  let { html, text } = renderBody(body);
  if (unsubscribeUrl) {
    html += `\n<p style="font-size:12px;color:#666"><a href="${escapeHtml(unsubscribeUrl)}">${UNSUBSCRIBE_LABEL}</a></p>`;
    text += `\n\n${UNSUBSCRIBE_LABEL}: ${unsubscribeUrl}`;
  }
  return { html, text };
}

/** RFC 8058 one-click unsubscribe headers. */
export const unsubscribeHeaders = (url: string) => [
  { Name: 'List-Unsubscribe', Value: `<${url}>` },
  { Name: 'List-Unsubscribe-Post', Value: 'List-Unsubscribe=One-Click' },
];

/** A plausible mailbox address (the provider has the last word). */
export const isEmailAddress = (v: string | null | undefined): v is string =>
  typeof v === 'string' &&
  v.length <= 254 &&
  /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/.test(v);

export const EMAIL_OPTOUT_ATTRIBUTES = ['email.optout'];
