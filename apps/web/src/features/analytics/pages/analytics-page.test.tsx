import { analyticsMessages, daysInRange } from '@impeto/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DOMAIN, type FetchHandler, ok, renderPage, testDomain } from '../../../test/render-page.tsx';
import { shiftDay, todayInZone } from '../range.ts';

const MOMENTUM = '44444444-4444-4444-8444-444444444444';
const CAMPAIGN = '55555555-5555-4555-8555-555555555555';
const CATEGORY_CART = '66666666-6666-4666-8666-666666666666';
const CATEGORY_LEAD = '77777777-7777-4777-8777-777777777777';

const A = `/api/analytics/${DOMAIN}`;
/** Each widget's endpoint, as the contract (packages/shared analytics.schema.ts) names it. */
const WIDGET_PATHS = [
  '/count/visits',
  '/count/visitors',
  '/count/momentums',
  '/pages/mostViewed',
  '/visitors/category',
  '/visitors/device',
  '/base/channel',
  '/momentums/performance',
  '/momentums/daily',
  '/optins/daily',
];

function fixtures(range: { start: string; end: string }): Record<string, unknown> {
  return {
    '/count/visits': { count: 12_345, previous: 10_973 },
    '/count/visitors': { count: 4321, previous: 5000 },
    '/count/momentums': { active: 2, inactive: 3 },
    '/count/live': { count: 7, at: '2026-11-23T15:04:00.000Z' },
    '/pages/mostViewed': [
      { url: 'https://loja.example.com/produtos/tenis', mobile: 1000, desktop: 234, count: 1234 },
      { url: 'https://loja.example.com/', mobile: 40, desktop: 60, count: 100 },
    ],
    '/visitors/category': [
      { category_uuid: CATEGORY_CART, parent_category: 'carrinho', amount: 1500 },
      { category_uuid: CATEGORY_LEAD, parent_category: 'lead', amount: 20 },
    ],
    '/visitors/device': [
      { device: 'mobile', amount: 3000 },
      { device: 'desktop', amount: 1321 },
    ],
    '/base/channel': [
      { channel: 'push', amount: 2500, new: 120 },
      { channel: 'onsite', amount: 4321, new: 300 },
      { channel: 'email', amount: 0, new: 0 },
      { channel: 'sms', amount: 0, new: 0 },
    ],
    '/momentums/performance': [
      {
        momentum_uuid: MOMENTUM,
        momentum_title: 'Carrinho abandonado',
        type: 'momentum',
        notifications_sent: 1000,
        notifications_viewed: 800,
        notifications_clicked: 125,
        notifications_ctr: 12.5,
        not_convertion: 9,
        not_convertion_profit: 1234.56,
        not_cart_access: 40,
        not_cart_access_percent: 4,
      },
      {
        momentum_uuid: CAMPAIGN,
        momentum_title: 'Black Friday, 50% off',
        type: 'campaign',
        notifications_sent: 2000,
        notifications_viewed: 1500,
        notifications_clicked: 100,
        notifications_ctr: 5,
        not_convertion: 1,
        not_convertion_profit: 349.9,
        not_cart_access: 10,
        not_cart_access_percent: 0.5,
      },
    ],
    '/momentums/daily': [
      {
        date: range.start,
        momentum_uuid: MOMENTUM,
        momentum_title: 'Carrinho abandonado',
        notifications_sent: 600,
        notifications_viewed: 500,
        notifications_clicked: 80,
      },
      {
        date: range.end,
        momentum_uuid: MOMENTUM,
        momentum_title: 'Carrinho abandonado',
        notifications_sent: 400,
        notifications_viewed: 300,
        notifications_clicked: 45,
      },
    ],
    '/optins/daily': [{ date: range.end, optins: 1200, optouts: 35 }],
  };
}

type Override = (path: string, url: URL) => { status?: number; body: unknown } | undefined;

/** Answers every analytics call with the contract's fixtures for the range each asks for. */
function serve(override: Override = () => undefined): FetchHandler {
  return (raw, init) => {
    const url = new URL(raw, 'http://localhost');
    const own = override(url.pathname.replace(A, ''), url);
    if (own) return own;
    if (url.pathname.startsWith(`/api/analytics/event/${CATEGORY_CART}/${DOMAIN}/`)) {
      const period = Number(url.searchParams.get('period'));
      const end = url.searchParams.get('end') ?? todayInZone();
      const rows = Array.from({ length: period }, (_, i) => ({ date: shiftDay(end, i - period + 1), amount: 10 + i }));
      return { body: { message: analyticsMessages.loaded, data: rows } };
    }
    if (url.pathname === `/api/analytics/momentum/${MOMENTUM}/count/dailyPeopleImpacted`) {
      const start = url.searchParams.get('start') ?? '';
      const end = url.searchParams.get('end') ?? '';
      const rows = Array.from({ length: daysInRange(start, end) }, (_, i) => ({
        date: shiftDay(start, i),
        notifications_sent: 1000,
        notifications_viewed: 500,
        notifications_clicked: 50,
      }));
      return { body: { message: analyticsMessages.loaded, data: rows } };
    }
    if (url.pathname === `${A}/settings` && init.method === 'PUT')
      return {
        body: { message: analyticsMessages.settingsSaved, data: (init.json as { settings: unknown }).settings },
      };
    if (url.pathname === `${A}/settings`) return ok({ cart_url: '/checkout' });
    const path = url.pathname.replace(A, '');
    const range = { start: url.searchParams.get('start') ?? '', end: url.searchParams.get('end') ?? '' };
    const data = fixtures(range)[path];
    if (data === undefined || !url.pathname.startsWith(A)) return undefined;
    const message = path === '/pages/mostViewed' ? analyticsMessages.mostViewedLoaded : analyticsMessages.loaded;
    return { body: { message, data } };
  };
}

const widget = (name: string) => screen.getByRole('region', { name });
const findWidget = (name: string) => screen.findByRole('region', { name }, { timeout: 8000 });
/** Waits until a widget shows something other than its skeleton. */
const settled = async (name: string) => {
  const region = await findWidget(name);
  await waitFor(() => expect(region.getAttribute('aria-busy')).toBeNull(), { timeout: 8000 });
  return region;
};

beforeEach(() => {
  // jsdom lays everything out at 0×0, which Recharts reports on every chart; the charts' data is asserted as text.
  const warn = console.warn.bind(console);
  vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    if (!String(args[0]).includes('of chart should be greater than 0')) warn(...args);
  });
});

describe('analytics dashboard', () => {
  it('shows every widget from the contract, with pt-BR numbers, money, percentages and changes', async () => {
    const today = todayInZone();
    renderPage(`/?domain=${DOMAIN}`, { session: true, fetch: serve() });

    const views = await settled('Visualizações de página');
    expect(within(views).getByText('12.345')).toBeTruthy();
    expect(within(views).getByText('+12,5%')).toBeTruthy();
    expect(within(views).getByText('vs. período anterior')).toBeTruthy();
    const visitors = await settled('Visitantes');
    expect(within(visitors).getByText('4.321')).toBeTruthy();
    expect(within(visitors).getByText('−13,6%')).toBeTruthy();
    const momentums = await settled('Momentums inativos');
    expect(within(momentums).getByText('3')).toBeTruthy();
    expect(within(momentums).getByText('2 ativos agora')).toBeTruthy();
    expect(within(await settled('Visitantes agora')).getByText('7')).toBeTruthy();

    const pages = await settled('Páginas mais visitadas');
    const firstRow = within(pages).getAllByRole('row')[1] as HTMLElement;
    expect(within(firstRow).getByText('/produtos/tenis')).toBeTruthy();
    expect(within(firstRow).getByText('1.000')).toBeTruthy();
    expect(within(firstRow).getByText('234')).toBeTruthy();
    expect(within(firstRow).getByText('1.234')).toBeTruthy();
    expect(within(pages).getByText('Páginas mais vistas carregadas.')).toBeTruthy();

    const performance = await settled('Desempenho dos momentums');
    for (const header of [
      'Enviadas',
      'Visualizadas',
      'Cliques',
      'CTR',
      'Conversões',
      'Receita (R$)',
      'Acessos ao carrinho',
      '% carrinho',
    ])
      expect(within(performance).getByRole('columnheader', { name: header })).toBeTruthy();
    const row = within(performance).getByRole('row', { name: /Carrinho abandonado/ });
    expect(within(row).getByText('R$ 1.234,56')).toBeTruthy();
    expect(within(row).getByText('12,5%')).toBeTruthy();
    expect(within(row).getByText('4,0%')).toBeTruthy();
    expect(within(row).getByRole('link', { name: 'Carrinho abandonado' }).getAttribute('href')).toBe(
      `/v2/momentum/create?id=${MOMENTUM}&view=1&domain=${DOMAIN}`,
    );
    const campaign = within(performance).getByRole('row', { name: /Black Friday/ });
    expect(within(campaign).getByRole('link', { name: 'Black Friday, 50% off' }).getAttribute('href')).toContain(
      `/v2/campaign/create?id=${CAMPAIGN}`,
    );
    const total = within(performance).getByRole('row', { name: /Total/ });
    expect(within(total).getByText('3.000')).toBeTruthy();
    expect(within(total).getByText('R$ 1.584,46')).toBeTruthy();
    expect(within(total).getByText('7,5%')).toBeTruthy();

    const base = await settled('Base por canal');
    const push = within(base).getByRole('row', { name: /Notificação push/ });
    expect(within(push).getByText('2.500')).toBeTruthy();
    expect(within(push).getByText('+120')).toBeTruthy();

    const devices = await settled('Visitantes por dispositivo');
    expect(within(devices).getByText('Celular')).toBeTruthy();
    expect(within(devices).getByText('3.000')).toBeTruthy();
    expect(within(devices).getByText('69,4%')).toBeTruthy();

    const optins = await settled('Opt-ins e opt-outs por dia');
    expect(within(optins).getByText('1.200')).toBeTruthy();
    expect(within(optins).getByText('35')).toBeTruthy();
    expect(within(optins).getByText('+1.165')).toBeTruthy();

    const event = await settled('Impacto por evento');
    await waitFor(() => expect(within(event).getByText(/visitantes com eventos “carrinho” no período/)).toBeTruthy());
    expect(within(event).getByText('10')).toBeTruthy();
    expect(screen.getByText(`Loja Aurora · ${today.split('-').reverse().join('/')}`)).toBeTruthy();
  });

  it('shows a failing widget’s server message while the others still render', async () => {
    const { calls } = renderPage(`/?domain=${DOMAIN}`, {
      session: true,
      fetch: serve((path) =>
        path === '/count/visits'
          ? { status: 400, body: { message: 'Informe a data no formato AAAA-MM-DD.', code: 'VALIDATION' } }
          : undefined,
      ),
    });
    const views = await settled('Visualizações de página');
    expect(within(views).getByText('Não foi possível carregar')).toBeTruthy();
    expect(within(views).getByText('Informe a data no formato AAAA-MM-DD.')).toBeTruthy();
    expect(within(await settled('Visitantes')).getByText('4.321')).toBeTruthy();
    expect(within(await settled('Páginas mais visitadas')).getByText('/produtos/tenis')).toBeTruthy();
    const before = calls.filter((c) => c.url.includes('/count/visits?')).length;
    expect(before).toBe(1);

    await userEvent.click(within(views).getByRole('button', { name: 'Tentar novamente' }));
    await waitFor(() => expect(calls.filter((c) => c.url.includes('/count/visits?')).length).toBe(2));
  });

  it('asks every widget for the range picked, and keeps it in the URL', async () => {
    const today = todayInZone();
    const { router, calls } = renderPage(`/?domain=${DOMAIN}`, { session: true, fetch: serve() });
    await settled('Visualizações de página');
    for (const path of WIDGET_PATHS)
      expect(calls.some((c) => c.url.startsWith(`${A}${path}?start=${today}&end=${today}`))).toBe(true);

    await userEvent.click(screen.getByRole('button', { name: 'Período' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Últimos 7 dias' }));

    const start = shiftDay(today, -6);
    await waitFor(() => expect(router.state.location.search).toContain(`start=${start}&end=${today}`));
    expect(router.state.location.search).toContain(`domain=${DOMAIN}`);
    await waitFor(() => {
      for (const path of WIDGET_PATHS)
        expect(calls.some((c) => c.url.startsWith(`${A}${path}?start=${start}&end=${today}`))).toBe(true);
    });
    await waitFor(() =>
      expect(
        calls.some((c) =>
          c.url.includes(
            `/api/analytics/event/${CATEGORY_CART}/${DOMAIN}/count/dailyPeopleImpacted?period=7&end=${today}`,
          ),
        ),
      ).toBe(true),
    );
  });

  it('offers the per-momentum chart only when the range spans more than one day', async () => {
    const today = todayInZone();
    const { unmount } = renderPage(`/?domain=${DOMAIN}&start=${today}&end=${today}`, { session: true, fetch: serve() });
    const impact = await settled('Impacto por momentum');
    expect(within(impact).queryByRole('button', { name: /Gráfico diário de/ })).toBeNull();
    expect(within(impact).getByText(/Selecione um período de mais de um dia/)).toBeTruthy();
    unmount();

    const start = shiftDay(today, -2);
    const { calls } = renderPage(`/?domain=${DOMAIN}&start=${start}&end=${today}`, { session: true, fetch: serve() });
    const several = await settled('Impacto por momentum');
    await userEvent.click(within(several).getByRole('button', { name: 'Gráfico diário de Carrinho abandonado' }));
    const dialog = await screen.findByRole('dialog', { name: 'Gráfico diário: Carrinho abandonado' });
    expect(await within(dialog).findByText('3.000')).toBeTruthy();
    expect(
      calls.some(
        (c) => c.url === `/api/analytics/momentum/${MOMENTUM}/count/dailyPeopleImpacted?start=${start}&end=${today}`,
      ),
    ).toBe(true);
  });

  it("exports what the widgets show as a CSV file, asking only for the experiments' and journeys' tables", async () => {
    const today = todayInZone();
    const experiments = (path: string) => (path === '/experiments' ? ok([]) : undefined);
    const { calls } = renderPage(`/?domain=${DOMAIN}&start=${today}&end=${today}`, {
      session: true,
      fetch: serve(experiments),
    });
    for (const name of [
      'Visualizações de página',
      'Visitantes',
      'Momentums inativos',
      'Visitantes agora',
      'Páginas mais visitadas',
      'Visitantes por categoria',
      'Visitantes por dispositivo',
      'Base por canal',
      'Desempenho dos momentums',
      'Impacto por momentum',
      'Opt-ins e opt-outs por dia',
    ])
      await settled(name);
    await waitFor(() => expect(within(widget('Impacto por evento')).getByText(/“carrinho”/)).toBeTruthy());

    let blob: Blob | undefined;
    let fileName = '';
    const urlStatics = URL as unknown as Record<string, unknown>;
    urlStatics.createObjectURL = (b: Blob) => {
      blob = b;
      return 'blob:csv';
    };
    urlStatics.revokeObjectURL = () => {};
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      fileName = this.download;
    });
    const before = calls.length;
    await userEvent.click(screen.getByRole('button', { name: 'Extrair para:' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'CSV (.csv)' }));

    // The CSV writer is fetched on the first export: the download follows a moment later.
    await waitFor(() => expect(fileName).toBe(`cell_dashboard_export_${today}.csv`));
    // The widgets' figures come from the cache; the A/B tests (issue #25) and the journeys (issue #26) are no
    // widget's: one request for each.
    expect(calls.slice(before).map((c) => c.url)).toEqual([
      `${A}/experiments?start=${today}&end=${today}`,
      `${A}/journeys?start=${today}&end=${today}`,
    ]);
    expect(blob?.type).toBe('text/csv;charset=utf-8');
    const bytes = new Uint8Array(await (blob as Blob).arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.slice(3));
    expect(text.startsWith(`Painel\r\nDomínio,Início,Fim\r\nLoja Aurora,${today},${today}\r\n\r\n`)).toBe(true);
    expect(text).toContain('\r\nVisualizações de página\r\nVisualizações,Período anterior\r\n12345,10973\r\n');
    expect(text).toContain(
      '\r\nPáginas mais visitadas\r\nURL,Mobile,Desktop,Total\r\nhttps://loja.example.com/produtos/tenis,1000,234,1234\r\n',
    );
    expect(text).toContain('\r\n"Black Friday, 50% off",Campanha,2000,1500,100,5,1,349.90,10,0.5\r\n');
    expect(text).toContain(`\r\nImpacto por evento\r\nData,Categoria,Visitantes\r\n${today},carrinho,10\r\n`);
    expect(text.endsWith(`Opt-ins e opt-outs por dia\r\nData,Opt-ins,Opt-outs\r\n${today},1200,35\r\n`)).toBe(true);
    expect(text.replaceAll('\r\n', '')).not.toContain('\n');
  });

  it('reads and saves the cart-page rule and shows the conversion call', async () => {
    const { calls } = renderPage(`/?domain=${DOMAIN}`, { session: true, fetch: serve() });
    await userEvent.click(await screen.findByRole('button', { name: 'Conversões' }, { timeout: 5000 }));
    // The dialog's code is fetched when it opens (lazyModal): the first import is slow under Vitest on a busy box.
    const dialog = await screen.findByRole('dialog', { name: 'Conversões' }, { timeout: 5000 });
    const input = (await within(dialog).findByLabelText('Página do carrinho')) as HTMLInputElement;
    await waitFor(() => expect(input.value).toBe('/checkout'));
    expect(within(dialog).getByText("gero('conversion', { value: 349.90, order_id: 'PED-123' })")).toBeTruthy();
    await userEvent.clear(input);
    await userEvent.type(input, '/carrinho');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Configurações de conversão salvas com sucesso!')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.json).toEqual({ settings: { cart_url: '/carrinho' } });
    expect(calls.find((c) => c.method === 'PUT')?.url).toBe(`${A}/settings`);
  });

  it('reads well for a new domain without data', async () => {
    renderPage(`/?domain=${DOMAIN}`, {
      session: true,
      fetch: serve((path) => {
        const empty: Record<string, unknown> = {
          '/count/visits': { count: 0, previous: 0 },
          '/pages/mostViewed': [],
          '/momentums/performance': [],
          '/momentums/daily': [],
          '/visitors/category': [],
        };
        return path in empty ? ok(empty[path]) : undefined;
      }),
    });
    const views = await settled('Visualizações de página');
    expect(within(views).getByText('0')).toBeTruthy();
    expect(within(views).getByText('Nenhuma visita no período')).toBeTruthy();
    const pages = await settled('Páginas mais visitadas');
    expect(within(pages).getByText('Nenhuma visita no período')).toBeTruthy();
    expect(within(pages).getByText(/instale o script/)).toBeTruthy();
    expect(within(await settled('Desempenho dos momentums')).getByText('Nenhum envio no período')).toBeTruthy();
    expect(within(await settled('Impacto por evento')).getByText('Nenhum evento no período')).toBeTruthy();
  });

  it('sends a user without a usable domain to /domains', async () => {
    const { router, calls } = renderPage(`/?domain=${DOMAIN}`, {
      session: true,
      domains: [testDomain({ gero_validate: false })],
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/domains'));
    expect(router.state.location.search).toBe(`?domain=${DOMAIN}`);
    expect(calls.some((c) => c.url.startsWith('/api/analytics/'))).toBe(false);
  });

  it('refreshes "visitantes agora" every 30 seconds, whatever the range', async () => {
    const intervals = vi.spyOn(globalThis, 'setInterval');
    let live = 7;
    const { calls } = renderPage(`/?domain=${DOMAIN}`, {
      session: true,
      fetch: serve((path) => (path === '/count/live' ? ok({ count: live, at: new Date().toISOString() }) : undefined)),
    });
    const card = await settled('Visitantes agora');
    expect(within(card).getByText('7')).toBeTruthy();
    const liveCalls = () => calls.filter((c) => c.url === `${A}/count/live`).length;
    expect(liveCalls()).toBe(1);
    const tick = intervals.mock.calls.find(([, ms]) => ms === 30_000)?.[0] as (() => void) | undefined;
    expect(tick).toBeTypeOf('function');
    live = 12;
    tick?.();
    await waitFor(() => expect(within(card).getByText('12')).toBeTruthy());
    expect(liveCalls()).toBe(2);
  });
});
