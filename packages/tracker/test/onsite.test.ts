import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTag, COLLECT, closePages, openPage, type PageOptions, type PageWindow, sleep } from './harness.ts';

let tag: ReturnType<typeof buildTag>;
const code: Record<string, string> = {};
beforeAll(() => {
  tag = buildTag();
  for (const v of ['1.0.0', '1.1.0', '1.2.0']) code[v] = tag.read(`gero/${v}/gero.min.js`);
});
afterAll(() => {
  closePages();
  tag?.remove();
});

type Message = { d: string; type: string; mode?: string; props: Record<string, string> };
type Page = ReturnType<typeof openPage>;

const BOX: Message = {
  d: 'box-1',
  type: 'notification_box',
  mode: 'devices_all',
  props: {
    notificationImage: 'https://cdn.example/oferta.png',
    notificationTitle: 'Frete grátis',
    notificationContent: 'Só hoje, em todo o site.',
    notificationButtonText: 'Ver ofertas',
    notificationButtonUrl: 'https://loja.example/ofertas',
    titleColor: '#123456',
    descriptionColor: 'rgb(1, 2, 3)',
    btnBackground: 'green',
    btnColor: '#fff',
    boxColor: '#fafafa',
  },
};
const TOPBAR: Message = {
  d: 'bar-1',
  type: 'topbar',
  mode: 'devices_all',
  props: {
    topbarContent: 'Black Friday começou',
    topbarBtnText: 'Aproveitar',
    topbarBtnUrl: 'https://loja.example/black-friday',
    topbarContentColor: '#222222',
    topbarBtnColor: 'yellow',
    topbarBtnBackground: '#0000ff',
    topbarBackgroundColor: 'hsl(0, 0%, 90%)',
  },
};
const ALERT: Message = {
  d: 'alert-1',
  type: 'alert_box',
  mode: 'devices_all',
  props: {
    alertContent: 'Seu carrinho expira em 10 minutos',
    alertContentColor: 'black',
    alertBackgroundColor: '#ffcc00',
  },
};

/** Opens a 1.2.0 page whose first poll answers `pending`, and waits for it. */
const show = async (pending: unknown[], o: PageOptions = {}) => {
  const page = openPage(code['1.2.0']!, { ...o, onsite: { pending, ...o.onsite } });
  await sleep(20);
  return page;
};
const hosts = (page: Page) => [...page.window.document.querySelectorAll('gero-onsite')] as PageWindow[];
const only = (page: Page) => {
  const all = hosts(page);
  expect(all).toHaveLength(1);
  expect(all[0].parentNode).toBe(page.window.document.body);
  expect(all[0].shadowRoot.mode).toBe('open');
  return all[0].shadowRoot;
};
/** A colour as the page's CSSOM writes it. */
const css = (page: Page, c: string) => {
  const s = page.window.document.createElement('i').style;
  s.color = c;
  return s.color;
};
const reports = (page: Page) => page.events().filter((e) => e.t === 'viewed' || e.t === 'clicked');

describe('on-site messages (1.2.0)', () => {
  it('renders a notification box with its image, texts and colours in an open shadow root on <body>', async () => {
    const page = await show([BOX]);
    const root = only(page);
    const box = root.querySelector('div');
    expect(box.getAttribute('role')).toBe('dialog');
    expect(box.style.backgroundColor).toBe(css(page, '#fafafa'));
    expect(root.querySelector('img').src).toBe('https://cdn.example/oferta.png');
    const title = root.querySelector('b');
    expect(title.textContent).toBe('Frete grátis');
    expect(title.style.color).toBe(css(page, '#123456'));
    const content = root.querySelector('p');
    expect(content.textContent).toBe('Só hoje, em todo o site.');
    expect(content.style.color).toBe(css(page, 'rgb(1, 2, 3)'));
    const cta = root.querySelector('a');
    expect(cta.textContent).toBe('Ver ofertas');
    expect(cta.href).toBe('https://loja.example/ofertas');
    expect(cta.target).toBe('_self');
    expect(cta.style.color).toBe(css(page, '#fff'));
    expect(cta.style.backgroundColor).toBe(css(page, 'green'));
    expect(root.querySelector('button[aria-label="Fechar"]').textContent).toBe('×');
    // The site's stylesheet cannot reach inside.
    expect(root.querySelector('style').textContent).toContain(':host{all:initial}');
    expect(page.errors).toEqual([]);
  });

  it('renders a topbar and an alert with their texts and colours', async () => {
    const page = await show([TOPBAR, ALERT]);
    const [bar, alert] = hosts(page).map((h) => h.shadowRoot);
    const barBox = bar.querySelector('div');
    expect(barBox.textContent).toContain('Black Friday começou');
    expect(barBox.style.backgroundColor).toBe(css(page, 'hsl(0, 0%, 90%)'));
    expect(barBox.style.color).toBe(css(page, '#222222'));
    const cta = bar.querySelector('a');
    expect([cta.textContent, cta.href]).toEqual(['Aproveitar', 'https://loja.example/black-friday']);
    expect(cta.style.color).toBe(css(page, 'yellow'));
    expect(cta.style.backgroundColor).toBe(css(page, '#0000ff'));
    expect(bar.querySelector('button[aria-label="Fechar"]')).not.toBeNull();

    const alertBox = alert.querySelector('div');
    expect(alertBox.getAttribute('role')).toBe('alert');
    expect(alertBox.textContent).toContain('Seu carrinho expira em 10 minutos');
    expect(alertBox.style.color).toBe(css(page, 'black'));
    expect(alertBox.style.backgroundColor).toBe(css(page, '#ffcc00'));
    // topRight by default, at most 320 px wide.
    expect([alertBox.style.top, alertBox.style.right, alertBox.style.bottom, alertBox.style.left]).toEqual([
      '16px',
      '16px',
      '',
      '',
    ]);
    expect(alert.querySelector('style').textContent).toMatch(/\.a\{max-width:min\(320px,/);
    expect(alert.querySelector('button[aria-label="Fechar"]')).not.toBeNull();
  });

  it("applies the spec's default colours when a colour is missing or does not look like one", async () => {
    const bad = 'red;background:url(https://x.example/t.gif)';
    const page = await show([
      {
        d: 'b',
        type: 'notification_box',
        props: {
          notificationTitle: 'T',
          notificationContent: 'C',
          notificationButtonText: 'B',
          titleColor: bad,
          descriptionColor: 'notacolor',
          boxColor: 'expression(alert(1))',
        },
      },
      {
        d: 't',
        type: 'topbar',
        props: { topbarContent: 'C', topbarBtnText: 'B', topbarBtnBackground: 'url(javascript:1)' },
      },
      { d: 'a', type: 'alert_box', props: { alertContent: 'C', alertContentColor: '' } },
    ]);
    const [box, bar, alert] = hosts(page).map((h) => h.shadowRoot);
    const black = css(page, '#000000');
    const white = css(page, '#FFFFFF');
    expect(box.querySelector('div').style.backgroundColor).toBe(white);
    expect(box.querySelector('b').style.color).toBe(black);
    expect(box.querySelector('p').style.color).toBe(black);
    expect(box.querySelector('.c').style.color).toBe(white);
    expect(box.querySelector('.c').style.backgroundColor).toBe(black);
    expect(box.querySelector('img')).toBeNull();

    expect(bar.querySelector('div').style.color).toBe(black);
    expect(bar.querySelector('div').style.backgroundColor).toBe(white);
    expect(bar.querySelector('.c').style.color).toBe(white);
    expect(bar.querySelector('.c').style.backgroundColor).toBe(black);

    expect(alert.querySelector('div').style.color).toBe(white);
    expect(alert.querySelector('div').style.backgroundColor).toBe(css(page, '#C04848'));
  });

  it.each([
    ['topLeft', { top: '16px', left: '16px', transform: 'translate(0,0)' }],
    ['centerCenter', { top: '50%', left: '50%', transform: 'translate(-50%,-50%)' }],
    ['bottomCenter', { bottom: '16px', left: '50%', transform: 'translate(-50%,0)' }],
    ['centerRight', { top: '50%', right: '16px', transform: 'translate(0,-50%)' }],
    ['nowhere', { top: '16px', right: '16px', transform: 'translate(0,0)' }],
  ])('places the alert at %s', async (alertPosition, expected) => {
    const page = await show([{ d: 'a', type: 'alert_box', props: { alertContent: 'Oi', alertPosition } }]);
    const s = only(page).querySelector('div').style;
    const placed = Object.fromEntries(
      ['top', 'right', 'bottom', 'left', 'transform'].filter((k) => s[k]).map((k) => [k, s[k]]),
    );
    expect(placed).toEqual(expected);
  });

  it('renders hostile props as inert text and drops URLs that are not http(s)', async () => {
    const script = '<script>window.pwned=1</script>';
    const img = '<img src=x onerror="window.pwned=1">';
    const page = await show([
      {
        d: 'x',
        type: 'notification_box',
        props: {
          notificationTitle: script,
          notificationContent: img,
          notificationButtonText: 'Clique',
          notificationButtonUrl: 'javascript:window.pwned=1',
          notificationImage: 'javascript:window.pwned=1',
        },
      },
      {
        d: 'y',
        type: 'topbar',
        props: { topbarContent: img, topbarBtnText: 'Ir', topbarBtnUrl: ' JavaScript:alert(1)' },
      },
      {
        d: 'z',
        type: 'notification_box',
        props: { notificationTitle: 'T', notificationImage: 'data:image/svg+xml,<svg onload=alert(1)>' },
      },
    ]);
    await sleep(20);
    const [box, bar, third] = hosts(page).map((h) => h.shadowRoot);
    expect(box.querySelector('b').textContent).toBe(script);
    expect(box.querySelector('p').textContent).toBe(img);
    expect(bar.querySelector('div').textContent).toContain(img);
    for (const root of [box, bar, third]) {
      expect(root.querySelector('script')).toBeNull();
      expect(root.querySelector('img')).toBeNull();
      expect(root.querySelector('a')).toBeNull();
    }
    // The button stays, without a link.
    const cta = box.querySelector('.c');
    expect([cta.tagName, cta.textContent, cta.getAttribute('href')]).toEqual(['BUTTON', 'Clique', null]);
    cta.click();
    expect(page.window.pwned).toBeUndefined();
    expect(hosts(page)).toHaveLength(2);
    page.hide();
    expect(reports(page).map((e) => [e.t, e.d])).toEqual([
      ['viewed', 'x'],
      ['viewed', 'y'],
      ['viewed', 'z'],
      ['clicked', 'x'],
    ]);
    expect(page.errors).toEqual([]);
  });

  describe('device targeting', () => {
    const MODES = ['devices_all', 'devices_mobile', 'devices_smartphone', 'devices_tablets', 'devices_desktops'];
    const device =
      (ua: string, width: number, height: number, extra: Record<string, unknown> = {}) =>
      (w: PageWindow) => {
        Object.defineProperty(w.navigator, 'userAgent', { value: ua, configurable: true });
        Object.defineProperty(w, 'screen', { value: { width, height }, configurable: true });
        for (const [k, v] of Object.entries(extra))
          Object.defineProperty(w.navigator, k, { value: v, configurable: true });
      };
    const CHROME =
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';
    const IPHONE =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';
    const ANDROID_PHONE =
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Mobile Safari/537.36';
    const ANDROID_TABLET =
      'Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';
    const IPAD =
      'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
    const MAC =
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15';

    it.each([
      ['a desktop', device(CHROME, 1920, 1080), ['devices_all', 'devices_desktops']],
      ['a Mac without touch', device(MAC, 1512, 982, { maxTouchPoints: 0 }), ['devices_all', 'devices_desktops']],
      ['an iPhone', device(IPHONE, 390, 844), ['devices_all', 'devices_mobile', 'devices_smartphone']],
      [
        'an Android phone in landscape',
        device(ANDROID_PHONE, 915, 412),
        ['devices_all', 'devices_mobile', 'devices_smartphone'],
      ],
      [
        'UA-CH mobile',
        device(CHROME, 412, 915, { userAgentData: { mobile: true } }),
        ['devices_all', 'devices_mobile', 'devices_smartphone'],
      ],
      ['an iPad', device(IPAD, 820, 1180), ['devices_all', 'devices_mobile', 'devices_tablets']],
      ['an Android tablet', device(ANDROID_TABLET, 1280, 800), ['devices_all', 'devices_mobile', 'devices_tablets']],
      [
        'an iPad asking for desktop pages',
        device(MAC, 1024, 1366, { maxTouchPoints: 5 }),
        ['devices_all', 'devices_mobile', 'devices_tablets'],
      ],
    ])('%s sees only the messages meant for it, and the others are not reported', async (_name, setup, expected) => {
      const messages = MODES.map((mode) => ({ d: mode, type: 'alert_box', mode, props: { alertContent: mode } }));
      const page = await show(messages, { setup });
      expect(hosts(page).map((h) => h.shadowRoot.querySelector('span').textContent)).toEqual(expected);
      page.hide();
      expect(reports(page).map((e) => e.d)).toEqual(expected);
    });
  });

  it('shows a delivery once in the life of the page, and reports viewed once, with the visitor id', async () => {
    const ticks: { fn: () => void; ms: number }[] = [];
    const page = await show([BOX], {
      beacon: 'absent',
      storage: { _gero_vid: 'visitante-1' },
      onsite: { collect: [BOX, TOPBAR] },
      setup: (w: PageWindow) => {
        w.setInterval = (fn: () => void, ms: number) => ticks.push({ fn, ms });
      },
    });
    expect(ticks.map((t) => t.ms)).toEqual([5000]);
    expect(page.polls).toEqual([`${COLLECT}/pending?id=g1&vid=visitante-1`]);
    // The same message comes back in later polls and in the answer of a POST sent through fetch.
    ticks[0]!.fn();
    await sleep(20);
    ticks[0]!.fn();
    await sleep(20);
    page.gero('event', 'compra');
    page.hide();
    await sleep(20);
    page.hide();
    expect(page.polls).toHaveLength(3);
    expect(hosts(page).map((h) => h.shadowRoot.querySelector('div').className)).toEqual(['n', 't']);
    expect(reports(page)).toEqual([
      { t: 'viewed', d: 'box-1', ts: expect.any(Number) },
      { t: 'viewed', d: 'bar-1', ts: expect.any(Number) },
    ]);
    for (const sent of page.fetches) expect(sent.body.vid).toBe('visitante-1');

    // Closed and served again: still not shown again.
    hosts(page)[0]!.shadowRoot.querySelector('.x').click();
    ticks[0]!.fn();
    await sleep(20);
    expect(hosts(page)).toHaveLength(1);
  });

  it('reports clicked on the CTA at once and follows its link in the same tab; closing is not a click', async () => {
    const page = await show([BOX, TOPBAR]);
    page.hide();
    const [box, bar] = hosts(page);
    bar.shadowRoot.querySelector('button[aria-label="Fechar"]').click();
    expect(bar.isConnected).toBe(false);
    const before = page.beacons.length;
    box.shadowRoot.querySelector('a').click();
    expect(page.beacons).toHaveLength(before + 1);
    expect(page.beacons.at(-1)!.body.e).toEqual([{ t: 'clicked', d: 'box-1', ts: expect.any(Number) }]);
    expect(page.beacons.at(-1)!.body.vid).toBe(page.window.localStorage.getItem('_gero_vid'));
    // jsdom does not load other documents, but says the link was followed.
    await sleep(10);
    expect(page.errors.map(String)).toEqual([expect.stringMatching(/navigation/)]);
    expect(reports(page).map((e) => [e.t, e.d])).toEqual([
      ['viewed', 'box-1'],
      ['viewed', 'bar-1'],
      ['clicked', 'box-1'],
    ]);
  });

  it('polls every 5 s only while the page is visible, and asks again when it comes back', async () => {
    const ticks: (() => void)[] = [];
    const page = await show([], {
      setup: (w: PageWindow) => {
        w.setInterval = (fn: () => void) => ticks.push(fn);
      },
    });
    expect(page.polls).toHaveLength(1);
    const doc = page.window.document;
    const visibility = (state: string) => {
      Object.defineProperty(doc, 'visibilityState', { value: state, configurable: true });
      doc.dispatchEvent(new page.window.Event('visibilitychange'));
    };
    visibility('hidden');
    ticks[0]!();
    await sleep(10);
    expect(page.polls).toHaveLength(1);
    page.onsite.pending = [ALERT];
    visibility('visible');
    await sleep(20);
    expect(page.polls).toHaveLength(2);
    expect(hosts(page)).toHaveLength(1);
  });

  it("with consent: 'required' neither polls nor shows anything before consent", async () => {
    const page = await show([ALERT], { init: { consent: 'required' }, beacon: 'absent', onsite: { collect: [BOX] } });
    page.gero('event', 'antes');
    await sleep(20);
    expect(page.window.fetch).not.toHaveBeenCalled();
    expect(hosts(page)).toHaveLength(0);
    page.gero('consent', true);
    await sleep(20);
    expect(page.polls).toHaveLength(1);
    expect(hosts(page)).toHaveLength(2);
    page.gero('consent', false);
    page.onsite.pending = [TOPBAR];
    page.window.document.dispatchEvent(new page.window.Event('visibilitychange'));
    await sleep(20);
    expect(page.polls).toHaveLength(1);
  });

  it('ignores malformed answers without a word to the page', async () => {
    const page = await show([
      null,
      1,
      'x',
      { d: '' },
      { d: 'a', type: 'popup' },
      { d: 'b', type: 'topbar', props: null },
    ]);
    expect(hosts(page)).toHaveLength(1);
    expect(page.errors).toEqual([]);
  });
});

describe('releases without on-site messages', () => {
  it.each(['1.0.0', '1.1.0'])('%s never polls and ignores onsite answers', async (v) => {
    const page = openPage(code[v]!, { beacon: 'absent', onsite: { collect: [BOX], pending: [BOX] } });
    page.hide();
    await sleep(50);
    expect(page.fetches).toHaveLength(1);
    expect(page.polls).toEqual([]);
    expect(hosts(page)).toHaveLength(0);
  });

  it('1.2.0 renders what the answer to a fetch POST carries', async () => {
    const page = openPage(code['1.2.0']!, { beacon: 'absent', onsite: { collect: [BOX] } });
    page.hide();
    await sleep(20);
    expect(hosts(page)).toHaveLength(1);
  });
});
