import {
  DCM_HTML_ATTRIBUTES,
  DCM_HTML_TAGS,
  DCM_IMAGE_SCHEMES,
  DCM_STYLE_PROPERTIES,
  DCM_URL_SCHEMES,
  SAFE_CSS_VALUE,
} from '@impeto/shared';
import sanitizeHtml from 'sanitize-html';

/*
 * An unverified domain's GCD HTML, cleaned by sanitize-html under the shared allow-list (packages/shared
 * dcm/dcm-html-policy.ts) before the tag receives it: the tag then only ever holds markup that cannot run script,
 * whatever the browser's parser makes of it. The tag's own filter stays behind it as a second layer.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...DCM_HTML_TAGS],
  allowedAttributes: DCM_HTML_ATTRIBUTES,
  allowedSchemes: [...DCM_URL_SCHEMES],
  allowedSchemesByTag: { img: [...DCM_IMAGE_SCHEMES] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: true,
  allowedStyles: { '*': Object.fromEntries(DCM_STYLE_PROPERTIES.map((p) => [p, [SAFE_CSS_VALUE]])) },
  disallowedTagsMode: 'discard',
  // Their text is not content either: dropped whole, not left behind as text.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'template', 'iframe', 'object', 'svg', 'math'],
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: attribs.target === '_blank' ? { ...attribs, rel: 'noopener noreferrer' } : attribs,
    }),
  },
};

export const sanitizeDcmHtml = (html: string) => sanitizeHtml(html, OPTIONS);
