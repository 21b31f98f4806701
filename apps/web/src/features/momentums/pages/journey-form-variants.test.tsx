import { momentumMessages } from '@impeto/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DOMAIN, type FetchHandler, ok, renderPage } from '../../../test/render-page.tsx';
import { CHANNEL, message, PLAIN, paused, sms } from './journey-form-kit.ts';

/* The v2 form's 'Jornada' list with a step whose message has A/B variants (made in the diagram): named and kept. */

const AB = [
  { name: 'A', weight: 50, values: [message('Ainda pensando?')] },
  { name: 'B', weight: 50, values: [message('10% de desconto para você')] },
];
const JOURNEY = paused('aaaaaaaa-aaaa-4aaa-8aaa-000000000002', {
  steps: [
    {
      wait: { amount: 1, unit: 'days' },
      condition: { kind: 'not_converted' },
      values: [message('Ainda pensando?')],
      variants: AB,
    },
    { wait: { amount: 3, unit: 'days' }, condition: { kind: 'not_clicked' }, values: [sms] },
  ],
  exit: { on_conversion: true, on_opt_out: true },
});

function serve(): FetchHandler {
  return (url, init) => {
    for (const it of [PLAIN, JOURNEY]) if (url === `/api/momentum/list?id=${it.uuid}`) return ok(it);
    if (url === '/api/momentum/update' && init.method === 'PUT')
      return { body: { message: momentumMessages.updated('momentum'), data: PLAIN } };
    if (url === `/api/person/filter/${DOMAIN}`) return ok([]);
    if (url === `/api/domain/channels/${DOMAIN}`)
      return ok([
        { uuid: CHANNEL, channel_type: 'CELL_NOTIFICATION', domain_uuid: DOMAIN, properties: {}, active: true },
      ]);
    return undefined;
  };
}

const open = async (uuid: string) => {
  const page = renderPage(`/v2/momentum/create?domain=${DOMAIN}&id=${uuid}`, { session: true, fetch: serve() });
  await screen.findByDisplayValue('Carrinho abandonado', {}, { timeout: 15000 });
  await screen.findAllByDisplayValue('Notificação push');
  return page;
};
const section = () => screen.getByRole('region', { name: 'Jornada' });
const save = async (calls: { url: string; json?: unknown }[]) => {
  await userEvent.click(screen.getByRole('button', { name: 'Seguir' }));
  await userEvent.click(await screen.findByRole('button', { name: 'Salvar' }));
  expect(await screen.findByText(momentumMessages.updated('momentum'))).toBeTruthy();
  return calls.find((c) => c.url === '/api/momentum/update')?.json as Record<string, unknown>;
};

describe('momentum form: Jornada with a step A/B test', { timeout: 60_000 }, () => {
  it("says 'Teste A/B: 2 variantes' for the step and saves its variants as they were", async () => {
    const { calls } = await open(JOURNEY.uuid);
    expect(
      within(section()).getByText(
        'Esperar 1 dia → Não converteu → Notificação push: Ainda pensando? · Teste A/B: 2 variantes',
      ),
    ).toBeTruthy();
    expect(within(section()).getByText('Esperar 3 dias → Não clicou na mensagem anterior → SMS (Zenvia)')).toBeTruthy();
    const body = await save(calls);
    const [first, second] = body.steps as Record<string, unknown>[];
    expect(first!.variants).toEqual([
      { name: 'A', weight: 50, values: [expect.objectContaining({ title: 'Ainda pensando?' })] },
      { name: 'B', weight: 50, values: [expect.objectContaining({ title: '10% de desconto para você' })] },
    ]);
    expect(second).not.toHaveProperty('variants');
  });
});
