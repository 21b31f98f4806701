import { momentumMessages } from '@impeto/shared';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import { COMPANY, DOMAIN, type FetchHandler, ok, renderPage } from '../../../test/render-page.tsx';

/*
 * What the v2 form's tests share (journeys, A/B tests, send the winner, sending time): a paused cart momentum and its
 * messages, the server that answers for the stored momentums or campaigns a test opens, the form opened on one, its
 * 'Jornada' section and a save.
 */

export const CHANNEL = '22222222-2222-4222-8222-222222222222';
export const message = (title: string) => ({
  filter: 'CELL_NOTIFICATION',
  name: 'Carrinho',
  title,
  message: 'Seu carrinho está esperando.',
  icon_uri: 'https://loja.example.com/icon.png',
  image: '',
  redirect_uri: 'https://loja.example.com/carrinho',
  intervalRecurrency: [],
});
export const sms = { filter: 'ZENVIA', body: 'Cupom VOLTA10', intervalRecurrency: [] };
const blocks = [
  { type: 'filter', regex: false, values: [{ filter: 'all', value: [] }] },
  {
    type: 'trigger',
    regex: false,
    values: [{ filter: 'pageview', comparation: 'contain', value: ['/carrinho'], dischargeIn: [] }],
  },
  { type: 'dispatcher', values: [message('Esqueceu algo?')] },
];
export const paused = (uuid: string, extra: Record<string, unknown> = {}) => ({
  uuid,
  company_uuid: COMPANY,
  domain_uuid: DOMAIN,
  user_uuid: '0b7e4f5a-1c2d-4e3f-8a9b-0c1d2e3f4a5b',
  type: 'momentum',
  momentum_title: 'Carrinho abandonado',
  momentum_description: null,
  status: 'Paused',
  active: false,
  scheduled_at: null,
  channel_uuid: CHANNEL,
  channels: { channel_type: 'CELL_NOTIFICATION' },
  momentums: blocks,
  worktime: null,
  experiment: null,
  created_at: '2026-03-10T12:00:00.000Z',
  updated_at: '2026-03-11T12:00:00.000Z',
  ...extra,
});
export const PLAIN = paused('aaaaaaaa-aaaa-4aaa-8aaa-000000000001');

interface Stored {
  uuid: string;
  type: string;
  momentum_title: string;
}
const kindOf = (item: Stored) => (item.type === 'campaign' ? 'campaign' : 'momentum');

/** The server the form talks to: the stored items by id, a save of the one opened, no filters, the audience, the push channel. */
function serve(items: Stored[], opened: Stored): FetchHandler {
  return (url, init) => {
    for (const it of items) if (url === `/api/momentum/list?id=${it.uuid}`) return ok(it);
    if (url === '/api/momentum/update' && init.method === 'PUT')
      return { body: { message: momentumMessages.updated(kindOf(opened)), data: opened } };
    if (url === `/api/person/filter/${DOMAIN}`) return ok([]);
    if (url === `/api/person/search/peopleImpacted/${DOMAIN}`)
      return ok({ percentualAtingido: 100, total: 1000, impacted: 1000 });
    if (url === `/api/domain/channels/${DOMAIN}`)
      return ok([
        { uuid: CHANNEL, channel_type: 'CELL_NOTIFICATION', domain_uuid: DOMAIN, properties: {}, active: true },
      ]);
    return undefined;
  };
}

/**
 * The v2 form opened on `uuid`, one of `stored` (PLAIN is served too), once its title and channel are shown: the
 * campaign form for a campaign, the momentum form otherwise.
 */
export const openForm = async (stored: Stored | Stored[], uuid: string) => {
  const items = [PLAIN, ...[stored].flat()];
  const item = items.find((it) => it.uuid === uuid)!;
  const kind = kindOf(item);
  const page = renderPage(`/v2/${kind}/create?domain=${DOMAIN}&id=${uuid}`, {
    session: true,
    fetch: serve(items, item),
  });
  await screen.findByDisplayValue(item.momentum_title, {}, { timeout: 15000 });
  await screen.findAllByDisplayValue('Notificação push');
  return page;
};

export const journeySection = () => screen.getByRole('region', { name: 'Jornada' });

/**
 * Seguir (unless the summary is already shown), then Salvar: the body the form sent to /momentum/update. `summary`:
 * a text the summary must show before the save.
 */
export const saveForm = async (
  calls: { url: string; json?: unknown }[],
  {
    kind = 'momentum',
    summary,
    next = true,
  }: { kind?: 'momentum' | 'campaign'; summary?: string; next?: boolean } = {},
) => {
  if (next) await userEvent.click(screen.getByRole('button', { name: 'Seguir' }));
  if (summary) expect(await screen.findByText(summary)).toBeTruthy();
  await userEvent.click(await screen.findByRole('button', { name: 'Salvar' }));
  expect(await screen.findByText(momentumMessages.updated(kind))).toBeTruthy();
  return calls.find((c) => c.url === '/api/momentum/update')?.json as Record<string, unknown>;
};

/** Types `value` into the number field `label`, replacing what it held. */
export const setNumber = async (label: string, value: string) => {
  const input = screen.getByRole('textbox', { name: label });
  await userEvent.clear(input);
  await userEvent.type(input, value);
};
