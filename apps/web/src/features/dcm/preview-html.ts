import {
  DCM_HTML_ATTRIBUTES,
  DCM_HTML_TAGS,
  DCM_IMAGE_SCHEMES,
  DCM_STYLE_PROPERTIES,
  DCM_URL_SCHEMES,
  isSafeCssValue,
} from '@impeto/shared';

/*
 * The preview's copy of the server's cleaning (apps/server modules/dcm/dcm-html.ts, sanitize-html): the same
 * shared allow-list, applied with the browser's own parsers. The HTML is parsed into an inert <template> (nothing
 * in it loads or runs), and each address is read by the URL parser, as a click or an image load would read it
 * (tabs, newlines and leading control characters gone, entities already decoded).
 */

const TAGS = new Set<string>(DCM_HTML_TAGS);
/** Dropped with what they hold (the server drops the same), not unwrapped into text. */
const DROPPED_WHOLE = new Set([
  'script',
  'style',
  'textarea',
  'option',
  'noscript',
  'template',
  'iframe',
  'object',
  'svg',
  'math',
]);
const STYLES = new Set<string>(DCM_STYLE_PROPERTIES);
const RELATIVE_BASE = 'https://relativo.invalid/';

const attributeAllowed = (tag: string, name: string) =>
  [...(DCM_HTML_ATTRIBUTES['*'] ?? []), ...(DCM_HTML_ATTRIBUTES[tag] ?? [])].some((a) =>
    a.endsWith('*') ? name.startsWith(a.slice(0, -1)) : a === name,
  );

const addressAllowed = (tag: string, value: string) => {
  try {
    const scheme = new URL(value, RELATIVE_BASE).protocol.slice(0, -1);
    return (tag === 'img' ? (DCM_IMAGE_SCHEMES as readonly string[]) : DCM_URL_SCHEMES).includes(scheme);
  } catch {
    return false;
  }
};

const cleanStyle = (style: string) =>
  style
    .split(';')
    .map((declaration) => {
      const colon = declaration.indexOf(':');
      const property = declaration.slice(0, colon).trim().toLowerCase();
      const value = declaration.slice(colon + 1).trim();
      return colon > 0 && STYLES.has(property) && value && isSafeCssValue(value) ? `${property}: ${value}` : '';
    })
    .filter(Boolean)
    .join('; ');

function clean(parent: ParentNode) {
  for (const node of [...parent.childNodes]) {
    if (node.nodeType === Node.COMMENT_NODE) node.remove();
    if (node.nodeType !== Node.ELEMENT_NODE) continue;
    const el = node as Element;
    const tag = el.localName;
    if (DROPPED_WHOLE.has(tag) || el.namespaceURI !== 'http://www.w3.org/1999/xhtml') {
      el.remove();
      continue;
    }
    clean(el);
    if (!TAGS.has(tag)) {
      el.replaceWith(...el.childNodes);
      continue;
    }
    for (const { name, value } of [...el.attributes]) {
      const keep =
        attributeAllowed(tag, name) &&
        (name !== 'href' && name !== 'src' ? true : addressAllowed(tag, value)) &&
        (name !== 'style' || cleanStyle(value) !== '');
      if (!keep) el.removeAttribute(name);
      else if (name === 'style') el.setAttribute('style', cleanStyle(value));
    }
    if (tag === 'a' && el.getAttribute('target') === '_blank') el.setAttribute('rel', 'noopener noreferrer');
  }
}

/** The custom HTML as the preview draws it: only what the shared allow-list lets through. */
export function cleanPreviewHtml(html: string) {
  const template = document.createElement('template');
  template.innerHTML = html;
  clean(template.content);
  return template.innerHTML;
}
