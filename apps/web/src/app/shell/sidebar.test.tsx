import type { DomainItem } from '@impeto/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { toSelectedDomain } from '../../lib/domain-store.ts';
import { renderPage, testDomain } from '../../test/render-page.tsx';
import { Sidebar } from './sidebar.tsx';

function renderSidebar(domains: DomainItem[], selectedIndex: number | null) {
  const selected =
    selectedIndex === null ? null : toSelectedDomain(domains[selectedIndex] as DomainItem, selectedIndex);
  renderPage(
    <Sidebar
      domains={domains}
      selected={selected}
      onSelectDomain={vi.fn()}
      onOpenScript={vi.fn()}
      onLogout={vi.fn()}
    />,
    { route: '/domains' },
  );
  return within(screen.getByRole('navigation', { name: 'Menu principal' }));
}

const FEATURES = ['Analytics', 'Momentums', 'Campanhas', 'GCD', 'Mídias', 'Canais'];

describe('sidebar', () => {
  it('enables every item, with ?domain=, when the selected domain is allowed', () => {
    const nav = renderSidebar([testDomain()], 0);
    for (const name of [...FEATURES, 'Domínios']) {
      const link = nav.getByRole('link', { name });
      expect(link.getAttribute('aria-disabled')).toBeNull();
      expect(link.getAttribute('href')).toContain('?domain=11111111-1111-4111-8111-111111111111');
    }
    expect(screen.getByText('Administração')).toBeTruthy();
  });

  it('disables the feature items when the selected domain is not validated', () => {
    const nav = renderSidebar([testDomain({ gero_validate: false })], 0);
    for (const name of FEATURES) expect(nav.getByRole('link', { name }).getAttribute('aria-disabled')).toBe('true');
    expect(nav.getByRole('link', { name: 'Domínios' }).getAttribute('aria-disabled')).toBeNull();
  });

  it('disables the feature items when the selected domain is inactive', () => {
    const nav = renderSidebar([testDomain({ status: 'Inactive' })], 0);
    expect(nav.getByRole('link', { name: 'Momentums' }).getAttribute('aria-disabled')).toBe('true');
  });

  it('hides Mídias and Canais when the company has no domains', () => {
    const nav = renderSidebar([], null);
    expect(nav.queryByRole('link', { name: 'Mídias' })).toBeNull();
    expect(nav.queryByRole('link', { name: 'Canais' })).toBeNull();
    expect(nav.getByRole('link', { name: 'Analytics' }).getAttribute('aria-disabled')).toBe('true');
    expect(nav.getByRole('link', { name: 'Domínios' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copiar script' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sair' })).toBeTruthy();
  });
});
