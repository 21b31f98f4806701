import { timingMessages } from '@impeto/shared';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { COMPANY, DOMAIN } from '../../../test/render-page.tsx';
import { CHANNEL, openForm, saveForm } from './momentum-form-kit.ts';

/* The v2 form's 'Horário de envio' (issue #27): throttle, local or best time, holidays, and the summary's end. */

const CAMPAIGN = {
  uuid: 'bbbbbbbb-bbbb-4bbb-8bbb-000000000001',
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
    {
      type: 'dispatcher',
      values: [
        {
          filter: 'CELL_NOTIFICATION',
          name: 'Liquidação',
          title: 'Até 50% off',
          message: 'Só hoje.',
          icon_uri: 'https://loja.example.com/icon.png',
          image: '',
          redirect_uri: 'https://loja.example.com/ofertas',
          intervalRecurrency: [],
        },
      ],
    },
  ],
  worktime: null,
  experiment: null,
  created_at: '2026-07-10T12:00:00.000Z',
  updated_at: '2026-07-11T12:00:00.000Z',
};

const open = () => openForm(CAMPAIGN, CAMPAIGN.uuid);
/** Salvar on the summary (the test went there): the body sent. */
const save = (calls: { url: string; json?: unknown }[]) => saveForm(calls, { kind: 'campaign', next: false });
const TIMING_KEYS = ['throttle_per_minute', 'send_at_local_time', 'best_time', 'skip_holidays', 'worktime_zone'];

describe('campaign form: Horário de envio (issue #27)', { timeout: 60_000 }, () => {
  it('sends none of the options when the section is left alone', async () => {
    const { calls } = await open();
    await userEvent.click(screen.getByRole('button', { name: 'Seguir' }));
    const body = await save(calls);
    for (const key of TIMING_KEYS) expect(key in body, key).toBe(false);
  });

  it('throttles and skips holidays, and the summary shows the expected end of the campaign', async () => {
    const { calls } = await open();
    const limit = screen.getByRole('textbox', { name: /Limite de envios por minuto/ });
    await userEvent.type(limit, '0');
    await userEvent.click(screen.getByRole('button', { name: 'Seguir' }));
    expect(await screen.findByText(timingMessages.throttleInvalid)).toBeTruthy();
    await userEvent.clear(limit);
    await userEvent.type(limit, '100');
    await userEvent.click(screen.getByRole('checkbox', { name: /Não enviar em feriados/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Seguir' }));
    expect(await screen.findByText('No máximo 100 envios por minuto, espaçados por igual.')).toBeTruthy();
    expect(screen.getByText('Não envia em feriados: passa para o dia seguinte.')).toBeTruthy();
    // 1.000 people at 100 a minute from 10:00: the last one 999 × 0,6 s later.
    expect(
      await screen.findByText(
        'Término previsto: 20/07/2026 às 10:09 (1.000 pessoas a 100 por minuto, a partir do agendamento).',
      ),
    ).toBeTruthy();
    const body = await save(calls);
    expect(body).toMatchObject({ throttle_per_minute: 100, skip_holidays: true });
    expect('send_at_local_time' in body).toBe(false);
  });

  it('sends at a time on each visitor’s clock', async () => {
    const { calls } = await open();
    await userEvent.click(screen.getByRole('radio', { name: 'Enviar às HH:MM no horário de cada visitante' }));
    const time = screen.getByLabelText('Horário do visitante') as HTMLInputElement;
    expect(time.value).toBe('10:00');
    await userEvent.click(screen.getByRole('button', { name: 'Seguir' }));
    expect(await screen.findByText('Às 10:00 no horário de cada visitante (nas próximas 24 horas).')).toBeTruthy();
    const body = await save(calls);
    expect(body).toMatchObject({ send_at_local_time: '10:00' });
    expect('best_time' in body).toBe(false);
  });

  // Its own render: a saved form goes back to the list.
  it('sends at each person’s best hour', async () => {
    const { calls } = await open();
    await userEvent.click(screen.getByRole('radio', { name: 'Melhor horário de cada pessoa' }));
    await userEvent.click(screen.getByRole('button', { name: 'Seguir' }));
    expect(await screen.findByText('No melhor horário de cada pessoa (nas próximas 24 horas).')).toBeTruthy();
    const body = await save(calls);
    expect(body).toMatchObject({ best_time: true });
    expect('send_at_local_time' in body).toBe(false);
  });
});
