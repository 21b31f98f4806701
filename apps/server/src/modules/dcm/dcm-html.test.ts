import type { DcmRule } from '@impeto/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';
import { toDcmRule } from './dcm.rules.ts';

/*
 * Issue #24: the HTML of a GCD item on an unverified domain reaches the tag cleaned under the shared allow-list
 * (packages/shared dcm/dcm-html-policy.ts), whatever the payload; the owner's ordinary markup stays.
 */

let t: TestApp;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000 });
  owner = await signUpAndSignIn(t.app);
});
afterAll(() => t.close());

const RUN = 'window.__xss=1';
/** The payload kinds of the report, and their usual disguises. */
const PAYLOADS: Record<string, string> = {
  script: `<script>${RUN}</script>`,
  'img onerror': `<img src="x" onerror="${RUN}">`,
  'javascript: with a tab': `<a href="java\tscript:${RUN}">a</a>`,
  'javascript: with a newline': `<a href="java\nscript:${RUN}">a</a>`,
  'javascript: with &#x09;': `<a href="java&#x09;script:${RUN}">a</a>`,
  'javascript: after a control character': `<a href="\u0001javascript:${RUN}">a</a>`,
  'javascript: in entities and capitals': `<a href="&#106;aVaScRiPt&colon;${RUN}">a</a>`,
  'data: link': `<a href="data:text/html,<script>${RUN}</script>">a</a>`,
  formaction: `<form><button formaction="javascript:${RUN}">b</button></form>`,
  'svg animate': `<svg><a><animate attributeName="href" to="javascript:${RUN}"/><text y="20">svg</text></a></svg>`,
  'svg set': `<svg><a><set attributeName="href" to="javascript:${RUN}"/><text y="20">svg</text></a></svg>`,
  'iframe srcdoc': `<iframe srcdoc="<script>${RUN}</script>"></iframe>`,
  'object data': `<object data="javascript:${RUN}"></object><embed src="javascript:${RUN}">`,
  'math maction': `<math><maction actiontype="statusline" xlink:href="javascript:${RUN}">m</maction></math>`,
  'form action': `<form action="javascript:${RUN}"><input type="submit"></form>`,
  'meta refresh': `<meta http-equiv="refresh" content="0;url=javascript:${RUN}">`,
  'style expression': `<div style="width:expression(${RUN})">e</div>`,
  'style url(javascript:)': `<div style="background:url(javascript:${RUN})">u</div>`,
  'style element': `<style>body{background:url("javascript:${RUN}")}</style>`,
  'base and link': `<base href="javascript:/"><link rel="stylesheet" href="javascript:${RUN}">`,
  'template and noscript': `<template><img src=x onerror="${RUN}"></template><noscript><p title="</noscript><img src=x onerror=${RUN}>"></p></noscript>`,
};
/** What must never reach the tag of an unverified domain (the cleaned HTML is sanitize-html's own serialisation). */
const VECTORS =
  /<\s*(script|style|iframe|object|embed|svg|math|animate|set|maction|form|input|meta|link|base|template|noscript)\b|\son\w+\s*=|javascript|expression\(|url\(|srcdoc|formaction|xlink|data:text/i;

describe('GCD HTML of an unverified domain', () => {
  it('reaches the tag with no script vector, whatever the payload', async () => {
    const d = await createDomain(t.app, owner, 'Loja', 'https://loja-html.com.br');
    const html = Object.values(PAYLOADS).join('\n');
    const res = await call(
      t.app,
      'POST',
      '/api/momentum/create',
      {
        domain_uuid: d.uuid,
        type: 'dcm',
        momentum_title: 'Cargas',
        status: 'Active',
        momentums: [
          blocks.pageviewContaining('/'),
          {
            type: 'dispatcher',
            values: [
              {
                filter: 'CELL_DCM',
                dispatcher_type: 'custom',
                htmlElement: '#promo',
                tagBehavior: 'beforeend',
                containHtmlElement: '',
                containText: '',
                customHtml: html,
                customCss: '',
                customJs: '',
                timeout: '',
                recurrence: '',
              },
            ],
          },
        ],
      },
      owner.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rules = (await t.app.inject({ method: 'GET', url: `/t/dcm/${d.gero_id}` })).json().rules as DcmRule[];
    expect(rules).toHaveLength(1);
    expect(rules[0]?.safe).toBe(true);
    expect(rules[0]?.js).toBeUndefined();
    const cleaned = rules[0]?.html ?? '';
    expect(cleaned.match(VECTORS)?.[0], cleaned).toBeUndefined();
    // The text of the harmless parts stays.
    expect(cleaned).toContain('<button>b</button>');
    expect(cleaned).toContain('<div>e</div>');
  });

  it("keeps the owner's ordinary markup: links, images, tables, allowed styles", async () => {
    const d = await createDomain(t.app, owner, 'Loja', 'https://loja-html-2.com.br');
    const ordinary = [
      '<div class="cupom" id="cupom" style="color:#c00;padding:8px 12px;background-color:rgb(255, 240, 240)">',
      '<h2>Cupom <strong>VOLTA10</strong></h2>',
      '<a href="https://loja-html-2.com.br/ofertas" target="_blank">Ver ofertas</a>',
      '<a href="/carrinho">Carrinho</a> <a href="mailto:sac@loja.com.br">SAC</a> <a href="tel:+5511999999999">Ligar</a>',
      '<img src="https://cdn.loja.com.br/banner.png" alt="Banner" width="300">',
      '<img src="data:image/png;base64,iVBORw0KGgo=" alt="pixel">',
      '<table><tbody><tr><td colspan="2">Frete grátis</td></tr></tbody></table>',
      '</div>',
    ].join('');
    await call(
      t.app,
      'POST',
      '/api/momentum/create',
      {
        domain_uuid: d.uuid,
        type: 'dcm',
        momentum_title: 'Comum',
        status: 'Active',
        momentums: [
          blocks.pageviewContaining('/'),
          {
            type: 'dispatcher',
            values: [
              {
                filter: 'CELL_DCM',
                dispatcher_type: 'custom',
                htmlElement: '#promo',
                tagBehavior: 'beforeend',
                containHtmlElement: '',
                containText: '',
                customHtml: ordinary,
                customCss: '',
                customJs: '',
                timeout: '',
                recurrence: '',
              },
            ],
          },
        ],
      },
      owner.token,
    );
    const rules = (await t.app.inject({ method: 'GET', url: `/t/dcm/${d.gero_id}` })).json().rules as DcmRule[];
    // sanitize-html closes void elements the XHTML way; a target="_blank" link gets rel="noopener noreferrer".
    expect(rules[0]?.html).toBe(
      ordinary
        .replace('target="_blank"', 'target="_blank" rel="noopener noreferrer"')
        .replace(/(<img [^>]*)>/g, '$1 />'),
    );
  });

  it("leaves a verified domain's HTML as its owner wrote it, beside its JS (the page is the owner's own)", () => {
    const customHtml = '<form action="/newsletter"><input name="email"><button>Quero</button></form><svg></svg>';
    const row = {
      uuid: '00000000-0000-4000-8000-000000000001',
      worktime: null,
      time_zone: 'America/Sao_Paulo',
      momentums: [
        blocks.pageviewContaining('/'),
        {
          type: 'dispatcher',
          values: [{ filter: 'CELL_DCM', htmlElement: '#promo', customHtml, customJs: 'window.__ok = 1;' }],
        },
      ],
    };
    expect(toDcmRule(row, true, new Date())).toMatchObject({ html: customHtml, js: 'window.__ok = 1;' });
    expect(toDcmRule(row, false, new Date())).toMatchObject({ html: '<button>Quero</button>', safe: true });
  });
});
