import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ok, renderPage, testDomain } from '../test/render-page.tsx';

const domain = testDomain();

const titleBecomes = (title: string) => waitFor(() => expect(document.title).toBe(title), { timeout: 5000 });

describe('page titles', () => {
  beforeEach(() => {
    document.title = 'Ímpeto';
  });

  it('names each public page in the browser tab, with the product name', async () => {
    const { router } = renderPage('/signin');
    await titleBecomes('Entrar · Ímpeto');
    await router.navigate('/recovery');
    await titleBecomes('Recuperar senha · Ímpeto');
    await router.navigate('/signup/company');
    await titleBecomes('Cadastro da empresa · Ímpeto');
    await router.navigate('/nao-existe');
    await titleBecomes('Página não encontrada · Ímpeto');
  });

  it('changes the title as the user moves between private pages, placeholders included', async () => {
    const { router } = renderPage(`/?domain=${domain.uuid}`, {
      session: true,
      domains: [domain],
      fetch: (url) => {
        if (url.includes('/momentum/list') || url.includes('/momentums')) return ok([]);
        return undefined;
      },
    });
    await titleBecomes('Analytics · Ímpeto');
    const pages: [string, string][] = [
      ['/domains', 'Domínios · Ímpeto'],
      ['/v2/momentums', 'Momentum · Ímpeto'],
      ['/v2/campaigns', 'Campanha · Ímpeto'],
      ['/v2/momentum/create', 'Momentum · Ímpeto'],
      ['/v2/campaign/create', 'Campanha · Ímpeto'],
      ['/channels', 'Canais · Ímpeto'],
      ['/media', 'Mídias · Ímpeto'],
      ['/settings', 'Configurações · Ímpeto'],
      ['/profile', 'Perfil · Ímpeto'],
      ['/payment', 'Plano e uso · Ímpeto'],
      ['/dcm', 'GCD · Ímpeto'],
    ];
    for (const [path, title] of pages) {
      await router.navigate(`${path}?domain=${domain.uuid}`);
      await titleBecomes(title);
    }
    expect(screen.getByRole('heading', { level: 2, name: 'GCD' })).toBeTruthy();
  });
});
