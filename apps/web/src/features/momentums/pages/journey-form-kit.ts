import { COMPANY, DOMAIN } from '../../../test/render-page.tsx';

/* What the v2 form's journey tests share (issue #26): a paused cart momentum and its messages. */

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
