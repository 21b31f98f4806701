import { experimentMessages, momentumMessages } from '@impeto/shared';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { COMPANY, DOMAIN } from '../../../test/render-page.tsx';
import { CHANNEL, openForm, setNumber } from './momentum-form-kit.ts';

/*
 * The v2 form's 'Teste A/B' for campaigns (issue #25): 'Enviar a vencedora ao restante' with its test share, hours and
 * metric; the summary says the plan and when the rest goes out, and with which variant once decided.
 */

const push = (title: string) => ({
  filter: 'CELL_NOTIFICATION',
  name: 'Liquidação',
  title,
  message: 'Só hoje.',
  icon_uri: 'https://loja.example.com/icon.png',
  image: '',
  redirect_uri: 'https://loja.example.com/ofertas',
  intervalRecurrency: [],
});
const variants = [
  { name: 'A', weight: 50, values: [push('Até 50% off')] },
  { name: 'B', weight: 50, values: [push('Frete grátis')] },
];
const campaign = (uuid: string, extra: Record<string, unknown> = {}) => ({
  uuid,
  company_uuid: COMPANY,
  domain_uuid: DOMAIN,
  user_uuid: '0b7e4f5a-1c2d-4e3f-8a9b-0c1d2e3f4a5b',
  type: 'campaign',
  momentum_title: 'Liquidação de inverno',
  momentum_description: null,
  status: 'Paused',
  active: false,
  // 10:00 in São Paulo.
  scheduled_at: '2026-07-20T13:00:00.000Z',
  channel_uuid: CHANNEL,
  channels: { channel_type: 'CELL_NOTIFICATION' },
  momentums: [
    { type: 'filter', regex: false, values: [{ filter: 'all', value: [] }] },
    { type: 'dispatcher', values: [push('Até 50% off')] },
  ],
  worktime: null,
  experiment: { control_percent: 0, variants },
  created_at: '2026-07-10T12:00:00.000Z',
  updated_at: '2026-07-11T12:00:00.000Z',
  ...extra,
});
const PLAIN = campaign('bbbbbbbb-bbbb-4bbb-8bbb-000000000001');
const DECIDED = campaign('bbbbbbbb-bbbb-4bbb-8bbb-000000000002', {
  // Paused after the decision (an active campaign is not edited).
  scheduled_at: null,
  experiment: { control_percent: 0, variants, winner: { test_percent: 10, hours: 2, metric: 'conversion_rate' } },
  experiment_decision: {
    planned_at: '2026-07-20T15:00:00.000Z',
    decided_at: '2026-07-20T15:00:30.000Z',
    metric: 'conversion_rate',
    winner: 'B',
    rates: [],
    rest: 900,
  },
});

const open = (uuid: string) => openForm([PLAIN, DECIDED], uuid);

describe('campaign form: send the winner (issue #25)', { timeout: 60_000 }, () => {
  it('tests on part of the audience, says when the winner goes out, and sends experiment.winner', async () => {
    const { calls } = await open(PLAIN.uuid);
    const toggle = screen.getByRole('switch', { name: /Enviar a vencedora ao restante/ });
    expect((toggle as HTMLInputElement).checked).toBe(false);
    await userEvent.click(toggle);
    expect((screen.getByRole('textbox', { name: /Testar em/ }) as HTMLInputElement).value).toBe('20 % do público');
    await setNumber('Testar em', '60');
    await setNumber('por', '6');
    await userEvent.click(screen.getByRole('radio', { name: 'Taxa de conversão' }));
    await userEvent.click(screen.getByRole('button', { name: 'Seguir' }));
    // Refused in pt-BR where it was typed.
    expect(await screen.findByText(experimentMessages.winnerPercentInvalid)).toBeTruthy();
    await setNumber('Testar em', '15');
    await userEvent.click(screen.getByRole('button', { name: 'Seguir' }));
    expect(
      await screen.findByText(
        /Testar em 15 % do público por 6 horas e enviar a vencedora ao restante \(vencedora por taxa de conversão\)\./,
      ),
    ).toBeTruthy();
    // Scheduled for 20/07 at 10:00 in São Paulo: the winner goes out 6 hours later.
    expect(screen.getByText(/A vencedora será enviada em 20\/07 às 16:00\./)).toBeTruthy();
    await userEvent.click(await screen.findByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(momentumMessages.updated('campaign'))).toBeTruthy();
    const body = calls.find((c) => c.url === '/api/momentum/update')?.json as {
      experiment: { winner: unknown; variants: unknown[] };
    };
    expect(body.experiment.winner).toEqual({ test_percent: 15, hours: 6, metric: 'conversion_rate' });
    expect(body.experiment.variants).toHaveLength(2);
  });

  it('sends no winner when the switch stays off', async () => {
    const { calls } = await open(PLAIN.uuid);
    await userEvent.click(screen.getByRole('button', { name: 'Seguir' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(momentumMessages.updated('campaign'))).toBeTruthy();
    const body = calls.find((c) => c.url === '/api/momentum/update')?.json as { experiment: object };
    expect('winner' in body.experiment).toBe(false);
  });

  it('shows the decision in the summary once the winner went out', async () => {
    await open(DECIDED.uuid);
    expect((screen.getByRole('switch', { name: /Enviar a vencedora ao restante/ }) as HTMLInputElement).checked).toBe(
      true,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Seguir' }));
    expect(
      await screen.findByText(/Vencedora: B, enviada ao restante em 20\/07 às 12:00 \(900 pessoas\)\./),
    ).toBeTruthy();
  });
});
