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

  it("reads a journey's steps: who reached each one, who left and why, what waits, what went out per channel", async () => {
    const journey = {
      ...result,
      messages: 1900,
      by_channel: [
        { channel: 'CELL_NOTIFICATION', messages: 1300 },
        { channel: 'SUPERARE_WEBVIEW', messages: 600 },
      ],
      stages: [result.stages[0], { stage: 'journey', entered: 5900, removed: 400 }, ...result.stages.slice(1)],
      journey: [
        { step: 0, branch: 'main', reached: 1300, exited: 0, left_by_condition: 0, waiting: 0, sent: 1300 },
        {
          step: 1,
          branch: 'main',
          reached: 1100,
          exited: 150,
          left_by_condition: 250,
          waiting: 50,
          sent: 500,
          variants: [
            { name: 'A', sent: 260 },
            { name: 'B', sent: 240 },
          ],
        },
        { step: 1, branch: 'otherwise', reached: 100, exited: 0, left_by_condition: 0, waiting: 0, sent: 100 },
      ],
    };
    renderPage(<SimulationPanel momentum={() => body} />, {
      fetch: { 'POST /api/momentum/simulate': () => ok(journey) },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Simular' }));
    const funnel = await screen.findByRole('table', { name: 'Funil da simulação' });
    expect(within(funnel).getByText('Etapas da jornada (condição e regras de saída)')).toBeTruthy();
    expect(screen.getByText('Web push: 1.300 · Mensagem no site: 600')).toBeTruthy();
    const steps = screen.getByRole('table', { name: 'Etapas da jornada simulada' });
    const rows = within(steps)
      .getAllByRole('row')
      .map((r) => r.textContent);
    expect(rows.slice(1)).toEqual([
      'Primeira mensagem1.300———1.300',
      'Etapa 11.10015025050500A: 260 · B: 240',
      'Etapa 1 · senão100———100',
    ]);
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
