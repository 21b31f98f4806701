import { msg } from '@impeto/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DOMAIN, type FetchHandler, ok, renderPage } from '../../../test/render-page.tsx';

const item = (id: string, name: string, bytes: number) => ({
  id,
  image: `/media/G-1/${id}.png`,
  baseUrl: '/media/G-1/',
  name: `${id}.png`,
  original_name: name,
  bytes,
  content_type: 'image/png',
  created_at: '2026-03-10T12:00:00.000Z',
});

function serve(media: unknown[]): FetchHandler {
  return (url, init) => {
    if (url === `/api/gallery/list/${DOMAIN}/domain`) return ok(media);
    if (url.startsWith('/api/gallery/remove/') && init.method === 'DELETE')
      return { body: { message: msg.media.removed, data: null } };
    return undefined;
  };
}

describe('media page', () => {
  it('says in a toast, besides the inline alert with its retry, that the media failed to load', async () => {
    renderPage(`/media?domain=${DOMAIN}`, {
      session: true,
      fetch: (url) => {
        if (url === `/api/gallery/list/${DOMAIN}/domain`)
          return { status: 400, body: { message: 'Não foi possível listar suas mídias.', code: 'X' } };
        return undefined;
      },
    });
    await waitFor(() => expect(screen.getAllByText('Não foi possível listar suas mídias.')).toHaveLength(2), {
      timeout: 5000,
    });
    expect(screen.getByRole('button', { name: 'Tentar novamente' })).toBeTruthy();
  });

  it('shows the empty state', async () => {
    renderPage(`/media?domain=${DOMAIN}`, { session: true, fetch: serve([]) });
    expect(await screen.findByText(msg.media.empty, {}, { timeout: 5000 })).toBeTruthy();
  });

  it('lists images with their sizes and removes one after confirmation', async () => {
    const { calls } = renderPage(`/media?domain=${DOMAIN}`, {
      session: true,
      fetch: serve([
        item('aaaaaaaa-1111-4111-8111-111111111111', 'banner.png', 1.5 * 1024 * 1024),
        item('bbbbbbbb-1111-4111-8111-111111111111', 'icone.png', 20 * 1024),
      ]),
    });
    expect(await screen.findByRole('img', { name: 'banner.png' }, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText(/1,5 MB/)).toBeTruthy();
    expect(screen.getByText(/20,0 KB/)).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Remover icone.png' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remover mídia' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remover' }));
    expect(await screen.findByText(msg.media.removed)).toBeTruthy();
    expect(
      calls.some(
        (c) => c.method === 'DELETE' && c.url === '/api/gallery/remove/bbbbbbbb-1111-4111-8111-111111111111/filename',
      ),
    ).toBe(true);
  });

  it('checks type and the 5 MB limit before sending, then sends data URLs and shows server reasons', async () => {
    const { calls } = renderPage(`/media?domain=${DOMAIN}`, {
      session: true,
      fetch: (url, init) => {
        if (url === `/api/gallery/list/${DOMAIN}/domain`) return ok([]);
        if (url === `/api/gallery/upload/${DOMAIN}/domain` && init.method === 'POST')
          return {
            status: 422,
            body: {
              message: msg.media.uploadFailed,
              code: 'MEDIA_REJECTED',
              fields: { 'images.1': msg.media.notImage('b.png') },
            },
          };
        return undefined;
      },
    });
    await userEvent.click(
      (await screen.findAllByRole('button', { name: 'Adicionar mídia' }, { timeout: 5000 }))[0] as HTMLElement,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Adicionar mídia' });
    const input = within(dialog).getByLabelText('Selecionar imagens') as HTMLInputElement;
    const png = (name: string, size: number) => new File([new Uint8Array(size)], name, { type: 'image/png' });
    await userEvent.upload(input, [png('a.png', 2048), png('b.png', 10), png('enorme.png', 6 * 1024 * 1024)], {
      applyAccept: false,
    });
    await userEvent.upload(input, [new File(['oi'], 'notas.txt', { type: 'text/plain' })], { applyAccept: false });
    expect(await within(dialog).findByText(msg.media.notImage('notas.txt'))).toBeTruthy();
    await userEvent.upload(input, [png('enorme.png', 6 * 1024 * 1024)], { applyAccept: false });
    expect(await within(dialog).findByText(msg.media.tooLarge('enorme.png'))).toBeTruthy();
    expect(within(dialog).getByText('2,0 KB')).toBeTruthy();

    await userEvent.click(within(dialog).getByRole('button', { name: /Enviar/ }));
    expect(await within(dialog).findByText(msg.media.notImage('b.png'))).toBeTruthy();
    const upload = calls.find((c) => c.url === `/api/gallery/upload/${DOMAIN}/domain`);
    const images = (upload!.json as { images: { name: string; data: string }[] }).images;
    expect(images.map((i) => i.name)).toEqual(['a.png', 'b.png']);
    expect(images[0]?.data.startsWith('data:image/png;base64,')).toBe(true);
  });
});
