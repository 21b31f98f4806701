import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTag,
  COLLECT,
  closePages,
  fakePush,
  openPage,
  type PageWindow,
  releases,
  sleep,
  VAPID,
} from './harness.ts';

let tag: ReturnType<typeof buildTag>;
const code: Record<string, string> = {};
beforeAll(() => {
  tag = buildTag();
  for (const r of releases.tracker) code[r.version] = tag.read(`gero/${r.version}/gero.min.js`);
});
afterAll(() => {
  closePages();
  tag?.remove();
});

const LATEST = '1.2.0';
const BATCH_WAIT = 600;

describe('the tracker', () => {
  it('sends the init page view with the wire fields after the batch wait', async () => {
    const page = openPage(code[LATEST]!, {
      url: 'https://loja.example/produtos?cor=azul',
      referrer: 'https://busca.example/?q=tenis',
      title: 'Produtos',
    });
    expect(page.beacons).toHaveLength(0);
    await sleep(BATCH_WAIT);
    expect(page.beacons).toHaveLength(1);
    const [sent] = page.beacons;
    expect(sent!.url).toBe(COLLECT);
    const vid = page.window.localStorage.getItem('_gero_vid');
    expect(vid).toBeTruthy();
    expect(sent!.body).toEqual({
      id: 'g1',
      vid,
      v: LATEST,
      l: page.window.navigator.language,
      e: [
        {
          t: 'pv',
          u: 'https://loja.example/produtos?cor=azul',
          r: 'https://busca.example/?q=tenis',
          ti: 'Produtos',
          ts: expect.any(Number),
        },
      ],
    });
    expect(page.errors).toEqual([]);
  });

  it('keeps the visitor id of an earlier visit and omits an empty referrer', async () => {
    const page = openPage(code[LATEST]!, { storage: { _gero_vid: 'visitante-1' } });
    page.hide();
    expect(page.beacons[0]!.body.vid).toBe('visitante-1');
    expect(page.beacons[0]!.body.e[0]).not.toHaveProperty('r');
  });

  it('1.6.0 reports the browser’s time zone once per session, in its first beacon; earlier releases never', async () => {
    const page = openPage(code['1.6.0']!, {});
    page.hide();
    const zone = new page.window.Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(zone).toBeTruthy();
    expect(page.beacons[0]!.body.tz).toBe(zone);
    page.gero('event', 'busca', { termo: 'tênis' });
    page.hide();
    expect(page.beacons).toHaveLength(2);
    expect(page.beacons[1]!.body).not.toHaveProperty('tz');
    expect(page.window.sessionStorage.getItem('_gero_tz')).toBe('1');
    // A later page of the same session (sessionStorage kept) does not report it again.
    const next = openPage(code['1.6.0']!, { session: { _gero_tz: '1' } });
    next.hide();
    expect(next.beacons[0]!.body).not.toHaveProperty('tz');
    const older = openPage(code['1.5.0']!, {});
    older.hide();
    expect(older.beacons[0]!.body).not.toHaveProperty('tz');
  });

  it('1.3.0 sends conversions with their value and order; earlier releases ignore the call', async () => {
    const page = openPage(code['1.3.0']!, { queued: [['conversion', { value: 349.9, order_id: 'PED-123' }]] });
    page.gero('conversion', { value: '59,90' });
    page.gero('conversion', { value: 'grátis', order_id: 'PED-9' });
    page.gero('conversion', { value: -1 });
    await sleep(BATCH_WAIT);
    expect(page.beacons[0]!.body.e.slice(1)).toEqual([
      { t: 'cv', v: 349.9, o: 'PED-123', ts: expect.any(Number) },
      { t: 'cv', v: 59.9, ts: expect.any(Number) },
    ]);
    const older = openPage(code['1.2.0']!, { queued: [['conversion', { value: 10, order_id: 'PED-1' }]] });
    await sleep(BATCH_WAIT);
    expect(older.beacons[0]!.body.e.map((e) => e.t)).toEqual(['pv']);
  });

  it('batches events and identification, queued before and after the tracker arrives', async () => {
    const page = openPage(code[LATEST]!, {
      queued: [['event', 'carrinho', { produto: 'Tênis', valor: 199.9, novo: true, ignorado: { a: 1 } }]],
    });
    page.gero('identify', { email: 'ana@example.com', phone: 11999990000, name: 'Ana', lista: [1] });
    await sleep(BATCH_WAIT);
    expect(page.beacons).toHaveLength(1);
    expect(page.beacons[0]!.body.e).toEqual([
      { t: 'pv', u: expect.any(String), ti: 'Loja', ts: expect.any(Number) },
      { t: 'ev', c: 'carrinho', p: { produto: 'Tênis', valor: 199.9, novo: true }, ts: expect.any(Number) },
      { t: 'id', p: { email: 'ana@example.com', phone: '11999990000', name: 'Ana' }, ts: expect.any(Number) },
    ]);
  });

  it('sends at once when 20 events are waiting, and on pagehide or a hidden page', () => {
    const page = openPage(code[LATEST]!);
    for (let i = 0; i < 19; i++) page.gero('event', 'clique', { i });
    expect(page.beacons).toHaveLength(1);
    expect(page.beacons[0]!.body.e).toHaveLength(20);

    page.gero('event', 'saida');
    page.hide();
    expect(page.beacons).toHaveLength(2);

    page.gero('event', 'aba');
    Object.defineProperty(page.window.document, 'visibilityState', { value: 'hidden', configurable: true });
    page.window.document.dispatchEvent(new page.window.Event('visibilitychange'));
    expect(page.beacons).toHaveLength(3);
    expect(page.beacons[2]!.body.e).toEqual([{ t: 'ev', c: 'aba', p: {}, ts: expect.any(Number) }]);
  });

  it('splits a large batch into beacons of at most 60 KB', () => {
    const page = openPage(code[LATEST]!);
    // 49 values of 500 'ã' (2 bytes each in UTF-8): about 49 KB an event.
    const big = Object.fromEntries(Array.from({ length: 49 }, (_, k) => [`k${k}`, 'ã'.repeat(500)]));
    for (let i = 0; i < 5; i++) page.gero('event', 'grande', { i, ...big });
    page.hide();
    expect(page.beacons.length).toBeGreaterThanOrEqual(5);
    for (const b of page.beacons) expect(Buffer.byteLength(b.raw)).toBeLessThanOrEqual(60_000);
    expect(page.events()).toHaveLength(6);
    expect(
      page
        .events()
        .filter((e) => e.t === 'ev')
        .map((e) => (e.p as { i: number }).i),
    ).toEqual([0, 1, 2, 3, 4]);
  });

  it("cuts values to the collector's limits", () => {
    const page = openPage(code[LATEST]!, { title: 'T'.repeat(400) });
    const many = Object.fromEntries(Array.from({ length: 60 }, (_, k) => [`k${k}`, k]));
    page.gero('event', 'c'.repeat(150), many);
    page.gero('identify', { name: 'n'.repeat(600), ['x'.repeat(101)]: 'longa' });
    page.hide();
    const [pv, ev, id] = page.events();
    expect((pv!.ti as string).length).toBe(300);
    expect((ev!.c as string).length).toBe(100);
    expect(Object.keys(ev!.p as object)).toHaveLength(50);
    expect(id!.p).toEqual({ name: 'n'.repeat(500) });
  });

  it("with consent: 'required' sends nothing until consent(true), and consent(false) stops and drops", async () => {
    const page = openPage(code[LATEST]!, {
      init: { consent: 'required' },
      queued: [['event', 'antes', {}]],
      setup: (w: PageWindow) => fakePush(w, { permission: 'default', answer: 'granted' }),
    });
    page.gero('identify', { email: 'ana@example.com' });
    page.gero('optin', 'default');
    await sleep(BATCH_WAIT);
    page.hide();
    expect(page.window.navigator.sendBeacon).not.toHaveBeenCalled();
    expect(page.window.fetch).not.toHaveBeenCalled();
    expect(page.window.navigator.serviceWorker.register).not.toHaveBeenCalled();
    expect(page.window.localStorage.getItem('_gero_vid')).toBeNull();
    expect(page.polls).toEqual([]);

    page.gero('consent', true);
    expect(page.beacons).toHaveLength(1);
    expect(page.beacons[0]!.body.e.map((e) => e.t)).toEqual(['pv', 'ev', 'id']);
    expect(page.window.navigator.serviceWorker.register).toHaveBeenCalledWith('/cn_sw.min.js', { scope: '/' });

    await sleep(10);
    page.gero('consent', false);
    page.gero('event', 'depois', {});
    await sleep(BATCH_WAIT);
    page.hide();
    // The opt-in found during those 10 ms was dropped with the queue.
    expect(page.beacons).toHaveLength(1);
    expect(page.fetches).toHaveLength(0);
    expect(page.errors).toEqual([]);
  });

  it('never throws into the page when sendBeacon throws or refuses: it falls back to fetch keepalive', async () => {
    for (const beacon of ['throws', 'false', 'absent'] as const) {
      const page = openPage(code[LATEST]!, { beacon });
      expect(() => page.gero('event', 'compra', { valor: 10 })).not.toThrow();
      expect(() => page.hide()).not.toThrow();
      expect(page.fetches).toHaveLength(1);
      expect(page.window.fetch).toHaveBeenCalledWith(COLLECT, {
        method: 'POST',
        body: page.fetches[0]!.raw,
        keepalive: true,
        headers: { 'content-type': 'text/plain' },
      });
      expect(page.fetches[0]!.body.e.map((e) => e.t)).toEqual(['pv', 'ev']);
      expect(page.errors).toEqual([]);
    }
    const page = openPage(code[LATEST]!, { beacon: 'throws' });
    page.window.fetch = () => {
      throw new Error('sem rede');
    };
    expect(() => page.hide()).not.toThrow();
    expect(() => page.gero('event')).not.toThrow();
    expect(page.errors).toEqual([]);
  });

  it('ignores a second copy of the tracker and unknown calls', () => {
    const page = openPage(code[LATEST]!);
    page.window.eval(code[LATEST]!);
    expect(() => page.gero('nada', 1, 2)).not.toThrow();
    page.hide();
    expect(page.beacons).toHaveLength(1);
    expect(page.events()).toHaveLength(1);
  });
});

describe('single-page navigation', () => {
  it.each(['1.1.0', '1.2.0'])(
    '%s sends a page view for pushState, replaceState and popstate, not for an in-page anchor',
    async (v) => {
      const page = openPage(code[v]!, { url: 'https://loja.example/', referrer: 'https://busca.example/' });
      page.window.history.pushState({}, '', '/carrinho');
      page.window.document.title = 'Carrinho';
      await sleep(150);
      page.window.history.pushState({}, '', '/carrinho#frete');
      await sleep(150);
      page.window.history.replaceState({}, '', '/checkout');
      await sleep(150);
      page.window.history.pushState({}, '', '/#/conta');
      await sleep(150);
      page.hide();
      expect(page.events().map((e) => [e.u, e.r, e.ti])).toEqual([
        ['https://loja.example/', 'https://busca.example/', 'Loja'],
        ['https://loja.example/carrinho', 'https://loja.example/', 'Carrinho'],
        ['https://loja.example/checkout', 'https://loja.example/carrinho#frete', 'Carrinho'],
        ['https://loja.example/#/conta', 'https://loja.example/checkout', 'Carrinho'],
      ]);
    },
  );

  it('1.0.0 counts only the first page view', async () => {
    const page = openPage(code['1.0.0']!, { url: 'https://loja.example/' });
    page.window.history.pushState({}, '', '/carrinho');
    page.window.history.replaceState({}, '', '/checkout');
    await sleep(150);
    page.hide();
    expect(page.events().map((e) => e.u)).toEqual(['https://loja.example/']);
  });

  it('keeps what the site gets from history calls, including their errors', () => {
    const page = openPage(code['1.1.0']!);
    expect(page.window.history.pushState({ a: 1 }, '', '/x')).toBeUndefined();
    expect(page.window.history.state).toEqual({ a: 1 });
    expect(() => page.window.history.pushState({}, '', 'https://outro.example/')).toThrow();
  });
});

describe('web push opt-in', () => {
  const settle = () => sleep(20);
  const optins = (page: ReturnType<typeof openPage>) =>
    page.events().filter((e) => e.t === 'optin' || e.t === 'optout');
  const box = (w: PageWindow) => w.document.querySelector('gero-optin');
  const button = (w: PageWindow, label: string) =>
    [...box(w).shadowRoot.querySelectorAll('button')].find((b: { textContent: string }) => b.textContent === label);

  it('default model asks permission, subscribes with the VAPID key and sends the subscription', async () => {
    let push: ReturnType<typeof fakePush> | undefined;
    const page = openPage(code[LATEST]!, {
      queued: [['optin', 'default']],
      setup: (w: PageWindow) => {
        push = fakePush(w, { permission: 'default', answer: 'granted' });
      },
    });
    await settle();
    expect(push!.serviceWorker.register).toHaveBeenCalledWith('/cn_sw.min.js', { scope: '/' });
    expect(push!.notification.requestPermission).toHaveBeenCalledTimes(1);
    const options = push!.pushManager.subscribe.mock.calls[0]![0] as {
      userVisibleOnly: boolean;
      applicationServerKey: Uint8Array;
    };
    expect(options.userVisibleOnly).toBe(true);
    expect(Buffer.from(options.applicationServerKey).toString('base64url')).toBe(VAPID);
    page.hide();
    expect(optins(page)).toEqual([
      {
        t: 'optin',
        s: { endpoint: 'https://push.example/nova', keys: { p256dh: 'BPk', auth: 'au' } },
        ts: expect.any(Number),
      },
    ]);
    expect(page.window.localStorage.getItem('_gero_push')).toBe('https://push.example/nova');
  });

  it('topbox shows a pt-BR box in an open shadow root; Permitir subscribes', async () => {
    let push: ReturnType<typeof fakePush> | undefined;
    const page = openPage(code[LATEST]!, {
      setup: (w: PageWindow) => {
        push = fakePush(w, { permission: 'default', answer: 'granted' });
      },
    });
    page.gero('optin', 'topbox');
    await settle();
    const w = page.window;
    expect(push!.notification.requestPermission).not.toHaveBeenCalled();
    expect(box(w).parentNode).toBe(w.document.body);
    const text = box(w).shadowRoot.textContent;
    expect(text).toContain('Receba nossas novidades');
    expect(text).toContain('Quer ser avisado sobre ofertas e novidades deste site?');
    button(w, 'Permitir').click();
    expect(push!.notification.requestPermission).toHaveBeenCalledTimes(1);
    expect(box(w)).toBeNull();
    await settle();
    page.hide();
    expect(optins(page).map((e) => e.t)).toEqual(['optin']);
  });

  it("topbox: 'Agora não' closes the box and it stays away for 7 days", async () => {
    const page = openPage(code[LATEST]!, {
      queued: [['optin', 'topbox']],
      setup: (w: PageWindow) => fakePush(w, { permission: 'default' }),
    });
    await settle();
    button(page.window, 'Agora não').click();
    expect(box(page.window)).toBeNull();
    const refused = page.window.localStorage.getItem('_gero_no');
    expect(Number(refused)).toBeGreaterThan(Date.now() - 1000);

    const sixDays = String(Date.now() - 6 * 864e5);
    const again = openPage(code[LATEST]!, {
      queued: [['optin', 'topbox']],
      storage: { _gero_no: sixDays },
      setup: (w: PageWindow) => fakePush(w, { permission: 'default' }),
    });
    await settle();
    expect(box(again.window)).toBeNull();

    const later = openPage(code[LATEST]!, {
      queued: [['optin', 'topbox']],
      storage: { _gero_no: String(Date.now() - 8 * 864e5) },
      setup: (w: PageWindow) => fakePush(w, { permission: 'default' }),
    });
    await settle();
    expect(box(later.window)).not.toBeNull();
  });

  it('already granted and subscribed: no prompt, and an optin only when the endpoint changed', async () => {
    for (const [stored, sends] of [
      ['https://push.example/a', 0],
      ['https://push.example/velha', 1],
    ] as const) {
      let push: ReturnType<typeof fakePush> | undefined;
      const page = openPage(code[LATEST]!, {
        queued: [['optin', 'topbox']],
        storage: { _gero_push: stored },
        setup: (w: PageWindow) => {
          push = fakePush(w, { permission: 'granted', endpoint: 'https://push.example/a' });
        },
      });
      await settle();
      page.hide();
      expect(push!.notification.requestPermission).not.toHaveBeenCalled();
      expect(box(page.window)).toBeNull();
      expect(optins(page).map((e) => (e.s as { endpoint: string }).endpoint)).toEqual(
        sends ? ['https://push.example/a'] : [],
      );
      expect(page.window.localStorage.getItem('_gero_push')).toBe('https://push.example/a');
    }
  });

  it('sends optout once when the permission was withdrawn after a subscription', async () => {
    const stored = { _gero_push: 'https://push.example/a' };
    const page = openPage(code[LATEST]!, {
      queued: [['optin', 'default']],
      storage: stored,
      setup: (w: PageWindow) => fakePush(w, { permission: 'denied', endpoint: 'https://push.example/a' }),
    });
    await settle();
    page.hide();
    expect(optins(page)).toEqual([{ t: 'optout', ts: expect.any(Number) }]);
    expect(page.window.localStorage.getItem('_gero_push')).toBeNull();
    expect(page.window.Notification.requestPermission).not.toHaveBeenCalled();
  });

  it('does nothing where push is unsupported', async () => {
    const page = openPage(code[LATEST]!, { queued: [['optin', 'default']] });
    await settle();
    page.hide();
    expect(page.errors).toEqual([]);
    expect(optins(page)).toEqual([]);
  });
});
