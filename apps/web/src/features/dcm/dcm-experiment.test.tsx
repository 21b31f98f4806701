import { experimentMessages, momentumMessages as mm } from '@impeto/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { COMPANY, DOMAIN, type FetchHandler, ok, renderPage } from '../../test/render-page.tsx';

/* The GCD manager's 'Teste A/B' (issue #25): variants of the tags, shares and control group in the body; the list's link. */

const cell = (over: Record<string, unknown> = {}) => ({
  filter: 'CELL_DCM',
  dispatcher_type: 'custom',
  htmlElement: '#vitrine',
  tagBehavior: 'afterbegin',
  containHtmlElement: '',
  containText: '',
  customHtml: '<div class="selo">Frete grátis</div>',
  customCss: '',
  customJs: '',
  timeout: 30,
  intervalRecurrency: [],
  ...over,
});
const itemOf = (extra: Record<string, unknown> = {}) => ({
  uuid: 'bbbbbbbb-bbbb-4bbb-8bbb-00000000ab01',
  company_uuid: COMPANY,
  domain_uuid: DOMAIN,
  user_uuid: '0b7e4f5a-1c2d-4e3f-8a9b-0c1d2e3f4a5b',
  type: 'dcm',
  momentum_title: 'Selo testado',
  momentum_description: null,
  status: 'Paused',
  active: false,
  scheduled_at: null,
  channel_uuid: null,
  channels: { channel_type: 'CELL_DCM' },
  momentums: [
    { type: 'filter', regex: false, values: [{ filter: 'all', value: [] }] },
    {
      type: 'trigger',
      regex: false,
      values: [{ filter: 'pageview', comparation: 'contain', value: ['/produtos'], dischargeIn: [] }],
    },
    { type: 'dispatcher', values: [cell()] },
  ],
  worktime: null,
  created_at: '2026-03-10T12:00:00.000Z',
  updated_at: '2026-03-11T12:00:00.000Z',
  ...extra,
});

const serve =
  (item: ReturnType<typeof itemOf>, bodies: Record<string, unknown>[]): FetchHandler =>
  (url, init) => {
    if (url === `/api/momentum/list/${DOMAIN}?type=dcm`) return ok([item]);
    if (url.startsWith('/api/momentum/list?id=')) return ok(item);
    if (url === `/api/person/filter/${DOMAIN}`) return ok([]);
    if (url === '/api/momentum/update' && init.method === 'PUT') {
      bodies.push(JSON.parse(String(init.body)));
      return { body: { message: mm.updated('dcm'), data: item } };
    }
    return undefined;
  };
const number = (label: string) => screen.getByRole('textbox', { name: label }) as HTMLInputElement;
const selector = () => screen.getByRole('textbox', { name: 'Seletor CSS do elemento' }) as HTMLInputElement;

describe('GCD manager: Teste A/B (issue #25)', { timeout: 120_000 }, () => {
  it('variants of the tags and a control group go in the body; shares that do not add up are refused', async () => {
    const bodies: Record<string, unknown>[] = [];
    const item = itemOf();
    renderPage(`/dcm/manager?domain=${DOMAIN}&uuid=${item.uuid}`, { session: true, fetch: serve(item, bodies) });
    expect(await screen.findByRole('heading', { name: 'Editar conteúdo' }, { timeout: 15000 })).toBeTruthy();
    const section = screen.getByRole('region', { name: 'Teste A/B' });
    await userEvent.click(within(section).getByRole('switch', { name: /Testar variantes/ }));
    await userEvent.click(screen.getByRole('tab', { name: 'Variante B' }));
    // Variant B starts as a copy of A; what changes here is B's alone.
    expect(selector().value).toBe('#vitrine');
    fireEvent.change(selector(), { target: { value: '#rodape' } });
    await userEvent.click(screen.getByRole('tab', { name: 'Variante A' }));
    expect(selector().value).toBe('#vitrine');
    fireEvent.change(number('Parcela da variante A'), { target: { value: '70' } });
    fireEvent.change(number('Grupo de controle'), { target: { value: '20' } });
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(experimentMessages.weightsSum)).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Últimos passos' })).toBeNull();

    fireEvent.change(number('Parcela da variante B'), { target: { value: '30' } });
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Últimos passos' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]!.experiment).toEqual({
      control_percent: 20,
      variants: [
        { name: 'A', weight: 70, values: [expect.objectContaining({ filter: 'CELL_DCM', htmlElement: '#vitrine' })] },
        { name: 'B', weight: 30, values: [expect.objectContaining({ filter: 'CELL_DCM', htmlElement: '#rodape' })] },
      ],
    });
  });

  it('opens a stored test on its variants, and the GCD list links the item to its report', async () => {
    const experiment = {
      control_percent: 10,
      variants: [
        { name: 'A', weight: 50, values: [cell()] },
        { name: 'B', weight: 50, values: [cell({ htmlElement: '#rodape' })] },
      ],
    };
    const item = itemOf({ experiment });
    const { router } = renderPage(`/dcm/manager?domain=${DOMAIN}&uuid=${item.uuid}`, {
      session: true,
      fetch: serve(item, []),
    });
    const tabs = within(await screen.findByRole('tablist', { name: 'Variantes da mensagem' }, { timeout: 15000 }));
    expect(tabs.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Variante A', 'Variante B']);
    expect(number('Grupo de controle').value).toBe('10 %');
    await userEvent.click(screen.getByRole('tab', { name: 'Variante B' }));
    expect(selector().value).toBe('#rodape');

    await router.navigate(`/dcm?domain=${DOMAIN}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Teste A/B de Selo testado' }, { timeout: 15000 }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/v2/experiment'));
    expect(router.state.location.search).toContain(`uuid=${item.uuid}`);
  });
});
