import { msg, SECRET_MASK } from '@impeto/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DOMAIN, type FetchHandler, ok, renderPage } from '../../../test/render-page.tsx';

const channel = (channel_type: string, properties: Record<string, string>) => ({
  uuid: `${channel_type.length}aaaaaaa-1111-4111-8111-111111111111`,
  channel_type,
  domain_uuid: DOMAIN,
  properties,
  updated_at: '2026-03-10T12:00:00.000Z',
  active: true,
});

function serve(channels: unknown[], onCreate?: (json: unknown) => { status?: number; body: unknown }): FetchHandler {
  return (url, init) => {
    if (url === `/api/domain/channels/${DOMAIN}`) return ok(channels);
    if (url === '/api/channel/create' && onCreate) return onCreate(init.json);
    return undefined;
  };
}

const ready = () => screen.findByRole('article', { name: 'SMS Zenvia' }, { timeout: 5000 });

describe('channels page', () => {
  it('says in a toast, besides the inline alert with its retry, that the channels failed to load', async () => {
    renderPage(`/channels?domain=${DOMAIN}`, {
      session: true,
      fetch: (url) => {
        if (url === `/api/domain/channels/${DOMAIN}`)
          return { status: 400, body: { message: 'Não foi possível listar os canais.', code: 'X' } };
        return undefined;
      },
    });
    expect(await screen.findByText('Não foi possível carregar os canais', {}, { timeout: 5000 })).toBeTruthy();
    await waitFor(() => expect(screen.getAllByText('Não foi possível listar os canais.')).toHaveLength(2));
    expect(screen.getByRole('button', { name: 'Tentar novamente' })).toBeTruthy();
  });

  it('shows the five cards, active ones checked and disabled with the right actions', async () => {
    renderPage(`/channels?domain=${DOMAIN}`, {
      session: true,
      fetch: serve([
        channel('CELL_NOTIFICATION', {}),
        channel('ZENVIA', { sender: 'AURORA', token: SECRET_MASK }),
        channel('SUPERARE_WEBVIEW', {}),
      ]),
    });
    await ready();
    for (const title of ['Notificação push', 'SMS Zenvia', 'E-mail Amazon SES', 'E-mail Akna', 'Mensagem no site'])
      expect(screen.getByRole('article', { name: title })).toBeTruthy();

    const push = screen.getByRole('checkbox', { name: 'Notificação push integrado' }) as HTMLInputElement;
    expect(push.checked).toBe(true);
    expect(push.disabled).toBe(true);
    const akna = screen.getByRole('checkbox', { name: 'E-mail Akna integrado' }) as HTMLInputElement;
    expect(akna.checked).toBe(false);

    expect(screen.getByRole('button', { name: 'Código de Notificação push' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Editar Notificação push' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Visualizar SMS Zenvia' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Editar SMS Zenvia' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Visualizar Mensagem no site' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Editar Mensagem no site' })).toBeNull();
    expect(screen.queryByText(/OneSignal/)).toBeNull();
  });

  it('sends nothing on an empty Zenvia submit and shows its required messages', async () => {
    const { calls } = renderPage(`/channels?domain=${DOMAIN}`, { session: true, fetch: serve([]) });
    const card = await ready();
    await userEvent.click(within(card).getByRole('button', { name: 'Integrar canal' }));
    const dialog = await screen.findByRole('dialog', { name: /SMS Zenvia/ });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Integrar' }));
    expect(within(dialog).getByText(msg.channel.zenviaLoginRequired)).toBeTruthy();
    expect(within(dialog).getByText(msg.channel.zenviaPasswordRequired)).toBeTruthy();
    expect(within(dialog).getByText(msg.channel.zenviaSenderRequired)).toBeTruthy();
    expect(calls.some((c) => c.url === '/api/channel/create')).toBe(false);
  });

  it('creates a Zenvia channel, then shows it in view mode without the credentials', async () => {
    let created: unknown;
    const { calls } = renderPage(`/channels?domain=${DOMAIN}`, {
      session: true,
      fetch: serve([], (json) => {
        created = json;
        return {
          body: { message: msg.channel.created, data: channel('ZENVIA', { sender: 'AURORA', token: SECRET_MASK }) },
        };
      }),
    });
    const card = await ready();
    await userEvent.click(within(card).getByRole('button', { name: 'Integrar canal' }));
    const dialog = await screen.findByRole('dialog', { name: /SMS Zenvia/ });
    const user = userEvent.setup();
    await user.type(within(dialog).getByLabelText(/Usuário/), 'aurora');
    await user.type(within(dialog).getByLabelText(/Senha/), 's3nh@-secreta');
    await user.type(within(dialog).getByLabelText(/Remetente/), 'AURORA');
    await user.click(within(dialog).getByRole('button', { name: 'Integrar' }));

    expect(await screen.findByText(msg.channel.created)).toBeTruthy();
    expect(created).toEqual({
      channel: {
        domain_uuid: DOMAIN,
        channel_type: 'ZENVIA',
        properties: { login: 'aurora', password: 's3nh@-secreta', sender: 'AURORA' },
      },
    });
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Editar' })).toBeTruthy());
    const login = within(dialog).getByLabelText('Usuário') as HTMLInputElement;
    expect(login.readOnly).toBe(true);
    expect(login.value).toBe(SECRET_MASK);
    expect((within(dialog).getByLabelText('Senha') as HTMLInputElement).value).toBe(SECRET_MASK);
    expect(dialog.innerHTML).not.toContain('s3nh@-secreta');
    expect(calls.filter((c) => c.url === `/api/domain/channels/${DOMAIN}`).length).toBeGreaterThan(1);
  });

  it('view mode shows only the mask for every credential', async () => {
    renderPage(`/channels?domain=${DOMAIN}`, {
      session: true,
      fetch: serve([
        channel('AWS_SES', {
          accessKeyId: SECRET_MASK,
          secretAccessKey: SECRET_MASK,
          region: 'us-east-1',
          source: 'a@b.com',
        }),
      ]),
    });
    await ready();
    await userEvent.click(screen.getByRole('button', { name: 'Visualizar E-mail Amazon SES' }));
    const dialog = await screen.findByRole('dialog', { name: /E-mail Amazon SES/ });
    const value = (label: string) => (within(dialog).getByLabelText(label) as HTMLInputElement).value;
    expect(value('Access Key ID')).toBe(SECRET_MASK);
    expect(value('Secret Access Key')).toBe(SECRET_MASK);
    expect(value('Região')).toBe('us-east-1');
    expect(value('Remetente (Source)')).toBe('a@b.com');
    for (const input of within(dialog).getAllByRole('textbox')) expect((input as HTMLInputElement).readOnly).toBe(true);
  });

  it('edits Zenvia from view mode, keeping the credentials left empty', async () => {
    const zenvia = channel('ZENVIA', { sender: 'AURORA', token: SECRET_MASK });
    const { calls } = renderPage(`/channels?domain=${DOMAIN}`, {
      session: true,
      fetch: (url, init) => {
        if (url === `/api/domain/channels/${DOMAIN}`) return ok([zenvia]);
        if (url === '/api/channel/update' && init.method === 'PUT')
          return {
            body: {
              message: msg.channel.updated,
              data: { ...zenvia, properties: { sender: 'LOJA', token: SECRET_MASK } },
            },
          };
        return undefined;
      },
    });
    await ready();
    await userEvent.click(screen.getByRole('button', { name: 'Visualizar SMS Zenvia' }));
    const dialog = await screen.findByRole('dialog', { name: /SMS Zenvia/ });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Editar' }));
    const sender = (await within(dialog).findByLabelText(/Remetente/)) as HTMLInputElement;
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    expect(sender.value).toBe('AURORA');
    expect((within(dialog).getByLabelText(/Usuário/) as HTMLInputElement).value).toBe('');
    await userEvent.clear(sender);
    await userEvent.type(sender, 'LOJA');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(msg.channel.updated)).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.json).toEqual({
      channel: {
        uuid: zenvia.uuid,
        domain_uuid: DOMAIN,
        channel_type: 'ZENVIA',
        properties: { login: '', password: '', sender: 'LOJA' },
      },
    });
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Editar' })).toBeTruthy());
  });

  it('integrates push with one click and shows both opt-in snippets', async () => {
    const { calls } = renderPage(`/channels?domain=${DOMAIN}`, {
      session: true,
      fetch: serve([], () => ({ body: { message: msg.channel.created, data: channel('CELL_NOTIFICATION', {}) } })),
    });
    await ready();
    const card = screen.getByRole('article', { name: 'Notificação push' });
    await userEvent.click(within(card).getByRole('button', { name: 'Integrar canal' }));
    const dialog = await screen.findByRole('dialog', { name: /Notificação push/ });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Integrar' }));
    expect(await screen.findByText('Canal integrado com sucesso!')).toBeTruthy();
    expect(calls.find((c) => c.url === '/api/channel/create')?.json).toEqual({
      channel: { domain_uuid: DOMAIN, channel_type: 'CELL_NOTIFICATION', properties: {} },
    });
    expect(await within(dialog).findByText(/gero\('optin', 'default'\)/)).toBeTruthy();
    expect(within(dialog).getByText(/gero\('optin', 'topbox'\)/)).toBeTruthy();
    expect(within(dialog).getAllByRole('button', { name: 'Copiar código' })).toHaveLength(2);
  });

  it('marks a channel whose credentials the provider refused', async () => {
    renderPage(`/channels?domain=${DOMAIN}`, {
      session: true,
      fetch: serve([
        {
          ...channel('ZENVIA', { sender: 'AURORA', token: SECRET_MASK }),
          credentials_refused: {
            at: '2026-03-11T09:00:00.000Z',
            reason: 'Credenciais recusadas pelo provedor (Zenvia, 401)',
          },
        },
      ]),
    });
    const card = await ready();
    expect(within(card).getByText('Credenciais recusadas pelo provedor')).toBeTruthy();
    expect(within(card).getByRole('alert').textContent).toContain('Edite as credenciais');
    expect(within(card).queryByText('Ativo')).toBeNull();
  });

  it('saves the frequency cap across channels; empty means no cap', async () => {
    const { calls } = renderPage(`/channels?domain=${DOMAIN}`, {
      session: true,
      fetch: (url, init) => {
        if (url === `/api/domain/channels/${DOMAIN}`) return ok([]);
        if (url === `/api/domain/frequency/${DOMAIN}` && init.method === 'PUT')
          return { body: { message: msg.frequencyCap.updated, data: (init.json as { domain: unknown }).domain } };
        if (url === `/api/domain/frequency/${DOMAIN}`) return ok({ frequency_cap_day: 2, frequency_cap_week: null });
        return undefined;
      },
    });
    const section = await screen.findByRole('region', { name: 'Limite de frequência' }, { timeout: 5000 });
    const day = await within(section).findByRole('textbox', { name: 'Por dia (24 horas)' });
    await waitFor(() => expect((day as HTMLInputElement).value).toBe('2'));
    await userEvent.type(within(section).getByRole('textbox', { name: 'Por semana (7 dias)' }), '10');
    await userEvent.clear(day);
    await userEvent.click(within(section).getByRole('button', { name: 'Salvar limite' }));
    expect(await screen.findByText(msg.frequencyCap.updated)).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.json).toEqual({
      domain: { frequency_cap_day: null, frequency_cap_week: 10 },
    });
  });
});
