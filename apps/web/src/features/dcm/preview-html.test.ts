import { describe, expect, it } from 'vitest';
import { previewDocument } from './components/sandbox-preview.tsx';

/*
 * Issue #24: the manager's preview draws the custom HTML cleaned under the shared allow-list (what the tag of an
 * unverified domain receives from the server), on top of its script-less sandbox.
 */

const RUN = 'parent.__xss=1';
const PAYLOADS = [
  `<script>${RUN}</script>`,
  `<img src="x" onerror="${RUN}">`,
  `<a href="java\tscript:${RUN}">a</a>`,
  `<a href="java\nscript:${RUN}">a</a>`,
  `<a href="java&#x09;script:${RUN}">a</a>`,
  `<a href="\u0001javascript:${RUN}">a</a>`,
  `<a href="&#106;aVaScRiPt&colon;${RUN}">a</a>`,
  `<a href="data:text/html,<script>${RUN}</script>">a</a>`,
  `<form><button formaction="javascript:${RUN}">b</button></form>`,
  `<svg><a><animate attributeName="href" to="javascript:${RUN}"/><text y="20">svg</text></a></svg>`,
  `<svg><a><set attributeName="href" to="javascript:${RUN}"/><text y="20">svg</text></a></svg>`,
  `<iframe srcdoc="<script>${RUN}</script>"></iframe>`,
  `<object data="javascript:${RUN}"></object><embed src="javascript:${RUN}">`,
  `<math><maction actiontype="statusline" xlink:href="javascript:${RUN}">m</maction></math>`,
  `<form action="javascript:${RUN}"><input type="submit"></form>`,
  `<meta http-equiv="refresh" content="0;url=javascript:${RUN}">`,
  `<div style="width:expression(${RUN})">e</div>`,
  `<div style="background:url(javascript:${RUN})">u</div>`,
  `<style>body{background:url("javascript:${RUN}")}</style>`,
  `<base href="javascript:/"><link rel="stylesheet" href="javascript:${RUN}">`,
  `<template><img src=x onerror="${RUN}"></template><noscript><p title="</noscript><img src=x onerror=${RUN}>"></p></noscript>`,
];
const VECTORS =
  /<\s*(script|style|iframe|object|embed|svg|math|animate|set|maction|form|input|meta|link|base|template|noscript)\b|\son\w+\s*=|javascript|expression\(|url\(|srcdoc|formaction|xlink|data:text/i;

/** The drawn content: what the preview puts in the element's box, past its own head and styles. */
const content = (html: string) => {
  const doc = previewDocument(html, '', 'beforeend', '#promo');
  return doc.slice(doc.indexOf('<body>'));
};

describe('the GCD preview', () => {
  it('draws no script vector, whatever the payload', () => {
    const drawn = content(PAYLOADS.join('\n'));
    expect(drawn.match(VECTORS)?.[0], drawn).toBeUndefined();
    expect(drawn).toContain('<button>b</button>');
  });

  it("draws the owner's ordinary markup as written", () => {
    const ordinary =
      '<div class="cupom" style="color: rgb(200, 0, 0); padding: 8px 12px">' +
      '<a href="https://loja.com.br/ofertas">Ver ofertas</a> <a href="/carrinho">Carrinho</a> ' +
      '<a href="mailto:sac@loja.com.br">SAC</a><img src="data:image/png;base64,iVBORw0KGgo=" alt="pixel">' +
      '<table><tbody><tr><td colspan="2">Frete grátis</td></tr></tbody></table></div>';
    expect(content(ordinary)).toContain(ordinary);
  });
});
