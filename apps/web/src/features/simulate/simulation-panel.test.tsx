import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DOMAIN, type FetchRequest, ok, renderPage } from '../../test/render-page.tsx';
import { SimulationPanel } from './index.ts';

const body = { domain_uuid: DOMAIN, type: 'momentum', momentum_title: 'Carrinho', momentums: [] };

const result = {
  persons: 1234,
  messages: 1300,
  channel: 'CELL_NOTIFICATION',
  by_channel: [{ channel: 'CELL_NOTIFICATION', messages: 1300 }],
  by_day: [
    { date: '2026-11-24', persons: 600 },
    { date: '2026-11-25', persons: 634 },
  ],
  stages: [
    { stage: 'trigger', entered: 5000, removed: 100 },
    { stage: 'filter', entered: 4900, removed: 2000 },
    { stage: 'channel', entered: 2900, removed: 1200 },
    { stage: 'schedule', entered: 1700, removed: 300 },
    { stage: 'frequency_cap', entered: 1400, removed: 100 },
    { stage: 'control_group', entered: 1300, removed: 0 },
  ],
  sample: [
    {
      recipient: 'v-123',
      stage: 'sent',
      reason: null,
      at: '2026-11-24T15:00:00.000Z',
      message: 'Sua sacola espera — Aproveite hoje.',
    },
    {
      recipient: 'a***a@l***a.com.br',
      stage: 'channel',
      reason: 'Visitante sem inscrição de push.',
      at: '2026-11-24T16:00:00.000Z',
      message: null,
    },
  ],
  from: '2026-11-24T11:30:00.000Z',
  to: '2026-11-25T11:30:00.000Z',
  took_ms: 842,
};

describe('SimulationPanel', () => {
  it('simulates the momentum in the editor over the chosen period and reads the funnel and the sample', async () => {
    const sent: unknown[] = [];
    renderPage(<SimulationPanel momentum={() => body} />, {
      fetch: {
        'POST /api/momentum/simulate': (_url: string, init: FetchRequest) => {
          sent.push(init.json);
          return ok(result, 'Simulação concluída.');
        },
      },
    });
    await userEvent.click(screen.getByRole('combobox', { name: 'Período' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Últimos 30 dias' }));
    await userEvent.click(screen.getByRole('button', { name: 'Simular' }));
    const funnel = await screen.findByRole('table', { name: 'Funil da simulação' });
    expect(sent).toEqual([{ momentum: body, days: 30 }]);
    const rows = within(funnel)
      .getAllByRole('row')
      .map((r) => r.textContent);
    expect(rows[2]).toBe('Filtros4.9002.000');
    expect(rows[7]).toBe('Enviadas1.300');
    expect(screen.getByText('1.234')).toBeTruthy();
    expect(screen.getByText('Mensagens · Web push')).toBeTruthy();
    const sample = screen.getByRole('table', { name: 'Amostra de pessoas' });
    expect(within(sample).getByText('Sua sacola espera — Aproveite hoje.')).toBeTruthy();
    expect(within(sample).getByText('Visitante sem inscrição de push.')).toBeTruthy();
    expect(screen.getByText(/Simulado em 842 ms/)).toBeTruthy();
  });

  it("shows the server's refusal as a toast, and what is missing before asking", async () => {
    let ready = false;
    renderPage(
      <SimulationPanel momentum={() => (ready ? body : null)} incompleteMessage="Complete o gatilho para simular." />,
      {
        fetch: {
          'POST /api/momentum/simulate': {
            status: 429,
            body: { message: 'Você já tem uma simulação em andamento.', code: 'SIMULATION_BUSY' },
          },
        },
      },
    );
    await userEvent.click(screen.getByRole('button', { name: 'Simular' }));
    expect(screen.getByText('Complete o gatilho para simular.')).toBeTruthy();
    ready = true;
    await userEvent.click(screen.getByRole('button', { name: 'Simular' }));
    expect(await screen.findByText('Você já tem uma simulação em andamento.')).toBeTruthy();
  });

  it('closing the panel aborts the request it made', async () => {
    let signal: AbortSignal | undefined;
    const view = renderPage(<SimulationPanel momentum={() => body} />, {
      fetch: {
        'POST /api/momentum/simulate': (_url: string, init: FetchRequest) => {
          signal = init.signal ?? undefined;
          return ok(result);
        },
      },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Simular' }));
    await screen.findByRole('table', { name: 'Funil da simulação' });
    expect(signal?.aborted).toBe(false);
    view.unmount();
    expect(signal?.aborted).toBe(true);
  });
});
