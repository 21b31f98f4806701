import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DcmRule } from '../../shared/src/dcm/dcm-rule.ts';
import { assignArm } from '../../shared/src/experiments/assign-arm.ts';
import { filterTest, type WireCondition } from '../../shared/src/filter/predicate.ts';
import { BASE, buildTag, COLLECT, closePages, fakePush, openPage, type PageOptions, sleep } from './harness.ts';

let tag: ReturnType<typeof buildTag>;
let tracker = '';
let chunk = '';
beforeAll(() => {
  tag = buildTag();
  tracker = tag.read('gero/1.5.0/gero.min.js');
  chunk = tag.read('gero/1.5.0/dcm.min.js');
});
afterAll(() => {
  closePages();
  tag?.remove();
});

const ID = '6f1c0f0e-0000-4000-8000-0000000000a1';
const rule = (extra: Partial<DcmRule> = {}): DcmRule => ({
  id: ID,
  f: [],
  g: { k: 'pageview', op: 'contain', v: ['/produtos'], d: 0 },
  kind: 'html',
  sel: '#promo',
  at: 'beforeend',
  html: '<a href="#cupom" class="cupom">Cupom VOLTA10</a>',
  ...extra,
});

const BODY = '<p id="topo">Topo</p><div id="promo"><span class="antes">Original</span></div>';

/** A 1.5.0 page with the injector; the rules and the visitor profile are what the server answers. */
const open = (
  rules: DcmRule[],
  o: PageOptions & { profile?: Record<string, unknown>; body?: string; chunkFirst?: boolean } = {},
) => {
  const gets: string[] = [];
  const page = openPage(tracker, {
    url: 'https://loja.example/produtos',
    cfg: { dcm: 'rev1' },
    ...o,
    get: (url) => {
      gets.push(url);
      if (url.startsWith(`${BASE}/t/dcm/`)) return { rev: 'rev1', rules };
      if (url.startsWith(`${COLLECT}/dcm?`)) return { a: o.profile ?? {} };
      return undefined;
    },
    setup: (w) => {
      w.document.body.innerHTML = o.body ?? BODY;
      w.__ran = 0;
      if (o.chunkFirst) w.eval(chunk);
      o.setup?.(w);
    },
  });
  if (!o.chunkFirst) page.window.eval(chunk);
  return { ...page, gets, doc: page.window.document as Document };
};
const dcmReports = (page: ReturnType<typeof open>) => page.events().filter((e) => e.t === 'dcm');

describe('the GCD injector', () => {
  it('asks for the cached rules of its revision and for its visitor, once sending is allowed', async () => {
    const page = open([rule()], { chunkFirst: true });
    await sleep(50);
    expect(page.gets.filter((u) => !u.includes('/pending?'))).toEqual([
      `${BASE}/t/dcm/g1?r=rev1`,
      expect.stringMatching(new RegExp(`^${COLLECT}/dcm\\?id=g1&vid=[\\w-]+&l=`)),
    ]);
    expect(page.doc.querySelector('#promo .cupom')?.textContent).toBe('Cupom VOLTA10');
  });

  it('waits for consent before asking or placing anything', async () => {
    const page = open([rule()], { init: { consent: 'required' } });
    await sleep(50);
    expect(page.gets).toEqual([]);
    expect(page.doc.querySelector('.cupom')).toBeNull();
    page.gero('consent', true);
    await sleep(50);
    expect(page.doc.querySelector('#promo .cupom')).not.toBeNull();
  });

  it.each([
    ['beforeend', ['antes', 'cupom']],
    ['afterbegin', ['cupom', 'antes']],
    ['replace', ['cupom']],
  ] as const)('%s puts the content exactly there, adds the CSS and runs the JS once', async (at, order) => {
    const page = open([
      rule({ at, css: '.cupom{color:rgb(1, 2, 3)}', js: 'window.__ran++; this.setAttribute("data-ran", "1");' }),
    ]);
    await sleep(600);
    // replace: the whole element gives way to the content, which takes its place in the page.
    const promo = at === 'replace' ? page.doc.body : page.doc.querySelector('#promo')!;
    if (at === 'replace') {
      expect(page.doc.querySelector('#promo')).toBeNull();
      expect([...page.doc.body.children].map((e) => e.id || e.tagName.toLowerCase())).toEqual(['topo', 'gero-dcm']);
    }
    const classes = [...promo.querySelectorAll('span, a')].map((e) => e.className);
    expect(classes).toEqual(order);
    expect(promo.querySelector('gero-dcm')?.getAttribute('data-ran')).toBe('1');
    expect(page.window.__ran).toBe(1);
    expect(page.doc.querySelector(`style[data-gero-dcm="${ID}"]`)?.textContent).toBe('.cupom{color:rgb(1, 2, 3)}');
    expect(page.window.getComputedStyle(promo.querySelector('.cupom')).color).toBe('rgb(1, 2, 3)');
    expect(page.doc.querySelector('#topo')?.textContent).toBe('Topo');
    expect(dcmReports(page)).toEqual([{ t: 'dcm', m: ID, k: 'viewed', ts: expect.any(Number) }]);
  });

  it('removes the content and its CSS after the timeout, giving a replaced element back in its place', async () => {
    const page = open([rule({ at: 'replace', css: '.cupom{color:red}', to: 1 })]);
    await sleep(100);
    expect(page.doc.querySelector('#promo')).toBeNull();
    expect(page.doc.querySelector('gero-dcm .cupom')).not.toBeNull();
    await sleep(1100);
    expect(page.doc.querySelector('gero-dcm')).toBeNull();
    expect(page.doc.querySelector('style[data-gero-dcm]')).toBeNull();
    expect(page.doc.querySelector('#promo .antes')?.textContent).toBe('Original');
    expect([...page.doc.body.children].map((e) => e.id)).toEqual(['topo', 'promo']);
  });

  it('shows at most `recurrence` times per visitor, counted in localStorage', async () => {
    const first = open([rule({ n: 2 })], { storage: { _gero_dcm: JSON.stringify({ [ID]: 1 }) } });
    await sleep(100);
    expect(first.doc.querySelector('.cupom')).not.toBeNull();
    expect(JSON.parse(first.window.localStorage.getItem('_gero_dcm'))).toEqual({ [ID]: 2 });
    const second = open([rule({ n: 2 })], { storage: { _gero_dcm: JSON.stringify({ [ID]: 2 }) } });
    await sleep(100);
    expect(second.doc.querySelector('.cupom')).toBeNull();
    expect(dcmReports(second)).toEqual([]);
  });

  it('places nothing for a visitor the filter excludes, nor on a page the trigger does not name', async () => {
    const filter: WireCondition[] = [{ k: 'navigator.language', kind: 'string', op: '==', v: ['pt-BR'] }];
    const excluded = open([rule({ f: filter })], { profile: { 'navigator.language': 'en-US' } });
    const included = open([rule({ f: filter })], { profile: { 'navigator.language': 'pt-BR' } });
    const otherPage = open([rule({ g: { k: 'pageview', op: 'contain', v: ['/carrinho'], d: 0 } })]);
    await sleep(100);
    expect(excluded.doc.querySelector('.cupom')).toBeNull();
    expect(included.doc.querySelector('.cupom')).not.toBeNull();
    expect(otherPage.doc.querySelector('.cupom')).toBeNull();
  });

  it('places only inside the worktime, read in the company’s time zone', async () => {
    const now = new Date();
    const local = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/Sao_Paulo',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(now);
    const part = (t: string) => local.find((p) => p.type === t)!.value;
    const today = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(part('weekday'));
    const minute = Number(part('hour')) * 60 + Number(part('minute'));
    const tz = 'America/Sao_Paulo';
    const openNow = open([rule({ w: { d: [today], s: 0, e: 0, tz } })]);
    const otherDay = open([rule({ w: { d: [(today + 3) % 7], s: 0, e: 0, tz } })]);
    const later = open([rule({ w: { d: [today], s: Math.min(minute + 60, 1439), e: 1440 - 1, tz } })]);
    await sleep(100);
    expect(openNow.doc.querySelector('.cupom')).not.toBeNull();
    expect(otherDay.doc.querySelector('.cupom')).toBeNull();
    if (minute + 60 < 1439) expect(later.doc.querySelector('.cupom')).toBeNull();
  });

  it('reads the current page into visited.url and a first visit as origin direct', async () => {
    const visited: WireCondition[] = [
      { k: 'visited.url', kind: 'list', op: 'contain', v: ['loja.example/produtos'] },
      { k: 'origin', kind: 'string', op: '==', v: ['direct'] },
    ];
    const page = open([rule({ f: visited })]);
    await sleep(100);
    expect(page.doc.querySelector('.cupom')).not.toBeNull();
  });

  it('places on a gero event of the trigger category and value', async () => {
    const events = rule({ g: { k: 'events', c: ['carrinho'], key: 'produto', op: 'contain', v: ['tênis'], d: 0 } });
    const page = open([events]);
    await sleep(100);
    expect(page.doc.querySelector('.cupom')).toBeNull();
    page.gero('event', 'carrinho', { produto: 'Meia' });
    await sleep(50);
    expect(page.doc.querySelector('.cupom')).toBeNull();
    page.gero('event', 'carrinho', { produto: 'TÊNIS de corrida' });
    await sleep(50);
    expect(page.doc.querySelector('.cupom')).not.toBeNull();
  });

  it('waits for a selector the page renders late, and for containText', async () => {
    const page = open([rule({ ce: '#topo', ct: 'oferta' })], { body: '<p id="topo">Topo</p>' });
    await sleep(100);
    const promo = page.doc.createElement('div');
    promo.id = 'promo';
    page.doc.body.append(promo);
    await sleep(100);
    expect(page.doc.querySelector('.cupom')).toBeNull();
    page.doc.querySelector('#topo')!.textContent = 'Topo com OFERTA';
    await sleep(100);
    expect(page.doc.querySelector('#promo .cupom')).not.toBeNull();
  });

  it('reports a click inside the content once, at once', async () => {
    const page = open([rule()]);
    await sleep(100);
    const link = page.doc.querySelector('.cupom') as HTMLElement;
    link.click();
    link.click();
    await sleep(20);
    expect(dcmReports(page).map((e) => e.k)).toEqual(['viewed', 'clicked']);
  });

  it('strips scripts and event handlers on an unverified domain (no customJs reaches it)', async () => {
    const page = open([
      rule({
        safe: true,
        html: '<b onclick="window.__ran++">Oi</b><script>window.__ran++</script><img src="x" onerror="window.__ran++">',
      }),
    ]);
    await sleep(100);
    const box = page.doc.querySelector('gero-dcm')!;
    expect(box.querySelector('b')?.getAttribute('onclick')).toBeNull();
    expect(box.querySelector('script')).toBeNull();
    expect(box.querySelector('img')?.getAttribute('onerror')).toBeNull();
    expect(page.window.__ran).toBe(0);
  });

  it('shows a template through the on-site renderer and reports it as the GCD item', async () => {
    const page = open([
      rule({
        kind: 'template',
        sel: undefined,
        tpl: { type: 'topbar', props: { topbarContent: 'Frete grátis', topbarBtnText: 'Ver' } },
      }),
    ]);
    await sleep(600);
    const host = page.doc.querySelector('gero-onsite') as HTMLElement;
    expect(host.shadowRoot?.textContent).toContain('Frete grátis');
    expect(dcmReports(page).map((e) => e.k)).toEqual(['viewed']);
    expect(page.events().some((e) => e.t === 'viewed')).toBe(false);
  });

  it('asks for the push opt-in with the item’s Topbox texts', async () => {
    const page = open(
      [
        rule({
          kind: 'optin',
          sel: 'body',
          optin: 'topbox',
          texts: { title: 'Fique por dentro', message: 'Avisamos das ofertas.' },
        }),
      ],
      { setup: (w) => fakePush(w, { permission: 'default' }) },
    );
    await sleep(200);
    const box = page.doc.querySelector('gero-optin') as HTMLElement;
    expect(box.shadowRoot?.querySelector('b')?.textContent).toBe('Fique por dentro');
    expect(box.shadowRoot?.querySelector('p')?.textContent).toBe('Avisamos das ofertas.');
    expect(box.shadowRoot?.textContent).toContain('Permitir');
  });

  it('reports a selector that matches nothing for 10 s, with the page', { timeout: 20_000 }, async () => {
    const page = open([rule({ sel: '#sumiu' })]);
    await sleep(9_000);
    expect(dcmReports(page)).toEqual([]);
    await sleep(1_500);
    expect(dcmReports(page)).toEqual([
      { t: 'dcm', m: ID, k: 'missing', u: 'https://loja.example/produtos', ts: expect.any(Number) },
    ]);
  });

  it('never throws into the page, whatever the rules say', async () => {
    const page = open([rule({ sel: '##', js: 'throw new Error("x")' }), rule({ id: 'b', sel: '#promo', js: '}{' })]);
    await sleep(100);
    expect(page.errors).toEqual([]);
  });
});

// The tag evaluates filters with the predicates the server compiles next to its SQL (packages/shared
// filter/predicate.ts; compile-filter.test.ts checks SQL and predicates agree on both databases). Here the built
// chunk, in a page, must decide as the shared module does.
describe('the built injector agrees with the shared filter predicates', () => {
  const cases: { f: WireCondition[]; a: Record<string, unknown> }[] = [
    {
      f: [{ k: 'client.location.city', kind: 'string', op: 'contain', v: ['são'] }],
      a: { 'client.location.city': 'SÃO Paulo' },
    },
    {
      f: [{ k: 'client.location.city', kind: 'string', op: 'exactly', v: [' niterói '] }],
      a: { 'client.location.city': 'NITERÓI' },
    },
    {
      f: [{ k: 'navigator.version', kind: 'string', op: '>=', v: ['120'] }],
      a: { 'navigator.version': '120.0.6099.109' },
    },
    { f: [{ k: 'navigator.version', kind: 'string', op: '<', v: ['99.5'] }], a: { 'navigator.version': '100' } },
    { f: [{ k: 'navigator.mobile', kind: 'boolean', op: '!=', v: ['true'] }], a: { 'navigator.mobile': false } },
    {
      f: [{ k: 'createdAt', kind: 'date', op: '>', v: ['2024-03-10T00:00:00.000Z'] }],
      a: { createdAt: '2024-03-10T00:00:00.000Z' },
    },
    {
      f: [
        {
          k: 'createdAt',
          kind: 'date',
          op: 'between',
          v: ['2024-03-10T00:00:00.000Z'],
          v2: '2024-03-12T00:00:00.000Z',
        },
      ],
      a: { createdAt: '2024-03-12T23:59:59.999Z' },
    },
    { f: [{ k: 'origin', kind: 'string', op: 'notcontain', v: ['google'] }], a: { origin: 'Google Ads' } },
    {
      f: [{ k: 'client.device.os', kind: 'string', op: '==', v: ['^(Android|iOS)$'], re: true }],
      a: { 'client.device.os': 'iOS' },
    },
    {
      f: [
        { k: 'navigator.browser', kind: 'string', op: '==', v: ['Firefox'] },
        { k: 'navigator.language', kind: 'string', op: 'contain', v: ['pt'], or: true },
      ],
      a: { 'navigator.browser': 'Chrome', 'navigator.language': 'pt-BR' },
    },
    {
      f: [{ k: 'notified.momentum_uuid', kind: 'list', op: '!=', v: ['m1'] }],
      a: { 'notified.momentum_uuid': ['m2', 'm1'] },
    },
  ];

  it('on operators, case folding, numbers, dates, regex, lists and two conditions', async () => {
    const expected = cases.map((c) => filterTest(c.f)(c.a));
    // Both answers occur, so a chunk that always or never places would fail.
    expect(new Set(expected)).toEqual(new Set([true, false]));
    const always: DcmRule['g'] = { k: 'always', op: '', v: [], d: 0 };
    const pages = cases.map((c) =>
      open([rule({ f: c.f, g: always })], { profile: c.a, body: '<div id="promo"></div>' }),
    );
    await sleep(150);
    expect(pages.map((p) => p.doc.querySelector('.cupom') !== null)).toEqual(expected);
  });
});

describe('the GCD injector with an A/B test (release 1.7.0)', () => {
  const experiment = {
    c: 20,
    v: [
      { n: 'A', w: 50, r: { html: '<b class="var">Variante A</b>' } },
      { n: 'B', w: 50, r: { html: '<b class="var">Variante B</b>', css: '.var{color:red}' } },
    ],
  };
  /** Reports leave with the next batch (0.5 s) or at once; a loaded machine may take longer. */
  const WAIT = { timeout: 10_000, interval: 50 };
  const shares = {
    control_percent: 20,
    variants: [
      { name: 'A', weight: 50 },
      { name: 'B', weight: 50 },
    ],
  };
  /** A visitor id whose arm (the engine's shared function, over the visitor id) is `arm`. */
  const visitorIn = (arm: string) => {
    for (let i = 0; ; i++) if (assignArm(`v-${i}`, ID, shares) === arm) return `v-${i}`;
  };
  const openV17 = (vid: string, profile: Record<string, unknown> = { a: {} }) => {
    const v17 = { tracker: tag.read('gero/1.7.0/gero.min.js'), chunk: tag.read('gero/1.7.0/dcm.min.js') };
    const gets: string[] = [];
    const page = openPage(v17.tracker, {
      url: 'https://loja.example/produtos',
      cfg: { dcm: 'rev1' },
      storage: { _gero_vid: vid },
      get: (url) => {
        gets.push(url);
        if (url.startsWith(`${BASE}/t/dcm/`)) return { rev: 'rev1', rules: [rule({ x: experiment })] };
        if (url.startsWith(`${COLLECT}/dcm?`)) return profile;
        return undefined;
      },
      setup: (w) => {
        w.document.body.innerHTML = BODY;
      },
    });
    page.window.eval(v17.chunk);
    return { ...page, doc: page.window.document as Document };
  };

  it("shows variant B's content to a visitor whose hash lands in B, and reports the arm", async () => {
    const page = openV17(visitorIn('B'));
    await vi.waitFor(() => expect(page.doc.querySelector('#promo .var')?.textContent).toBe('Variante B'), WAIT);
    expect(page.doc.querySelector('style[data-gero-dcm]')?.textContent).toBe('.var{color:red}');
    (page.doc.querySelector('#promo .var') as HTMLElement).click();
    await vi.waitFor(
      () =>
        expect(page.events().filter((e) => e.t === 'dcm')).toEqual([
          expect.objectContaining({ m: ID, k: 'viewed', a: 'B' }),
          expect.objectContaining({ m: ID, k: 'clicked', a: 'B' }),
        ]),
      WAIT,
    );
  });

  it('shows variant A to a visitor in A', async () => {
    const page = openV17(visitorIn('A'));
    await vi.waitFor(() => expect(page.doc.querySelector('#promo .var')?.textContent).toBe('Variante A'), WAIT);
    await vi.waitFor(
      () =>
        expect(page.events().filter((e) => e.t === 'dcm')).toEqual([expect.objectContaining({ k: 'viewed', a: 'A' })]),
      WAIT,
    );
  });

  it('shows nothing to a control visitor and reports them held out', async () => {
    const page = openV17(visitorIn('control'));
    // Reported when the content would have gone in: from then on the page is as it was.
    await vi.waitFor(
      () =>
        expect(page.events().filter((e) => e.t === 'dcm')).toEqual([
          expect.objectContaining({ m: ID, k: 'held', a: 'control' }),
        ]),
      WAIT,
    );
    expect(page.doc.querySelector('#promo')?.innerHTML).toBe('<span class="antes">Original</span>');
    expect(page.doc.querySelector('gero-dcm')).toBeNull();
  });

  it("shows nothing to a visitor the server says is in the domain's global control group (g: 1)", async () => {
    // The engine's draw over the person's uuid, which /collect/dcm answers: the visitor's own arm does not matter.
    const page = openV17(visitorIn('B'), { a: {}, g: 1 });
    await vi.waitFor(
      () =>
        expect(page.events().filter((e) => e.t === 'dcm')).toEqual([
          expect.objectContaining({ k: 'held', a: 'global' }),
        ]),
      WAIT,
    );
    expect(page.doc.querySelector('gero-dcm')).toBeNull();
  });

  it('an older release (1.5.0) ignores the test and shows the base content without an arm', async () => {
    const page = open([rule({ x: experiment })]);
    await vi.waitFor(() => expect(page.doc.querySelector('#promo .cupom')).not.toBeNull(), WAIT);
    await vi.waitFor(
      () => expect(dcmReports(page)).toEqual([expect.not.objectContaining({ a: expect.anything() })]),
      WAIT,
    );
  });
});
