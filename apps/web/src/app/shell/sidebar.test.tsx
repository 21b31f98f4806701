import type { DomainItem } from '@impeto/shared';
import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { toSelectedDomain } from '../../lib/domain-store.ts';
import { Sidebar } from './sidebar.tsx';

const domain = (overrides: Partial<DomainItem> = {}): DomainItem => ({
  uuid: '11111111-1111-4111-8111-111111111111',
  name: 'Loja Aurora',
  domain: 'https://loja.example.com',
  domain_root: 'https://loja.example.com',
  gero_id: 'G-123',
  gero_validate: true,
  gero_version: '1.0.0',
  cn_sw_version: '1.0.0',
  status: 'Active',
  active: true,
  ...overrides,
});

function renderSidebar(domains: DomainItem[], selectedIndex: number | null) {
  const selected =
    selectedIndex === null ? null : toSelectedDomain(domains[selectedIndex] as DomainItem, selectedIndex);
  render(
    <MantineProvider>
      <MemoryRouter initialEntries={['/domains']}>
        <Sidebar
          domains={domains}
          selected={selected}
          onSelectDomain={vi.fn()}
          onOpenScript={vi.fn()}
          onLogout={vi.fn()}
        />
      </MemoryRouter>
    </MantineProvider>,
  );
  return within(screen.getByRole('navigation', { name: 'Menu principal' }));
}

const FEATURES = ['Analytics', 'Momentums', 'Campanhas', 'GCD', 'Mídias', 'Canais'];

describe('sidebar', () => {
  it('enables every item, with ?domain=, when the selected domain is allowed', () => {
    const nav = renderSidebar([domain()], 0);
    for (const name of [...FEATURES, 'Domínios']) {
      const link = nav.getByRole('link', { name });
      expect(link.getAttribute('aria-disabled')).toBeNull();
      expect(link.getAttribute('href')).toContain('?domain=11111111-1111-4111-8111-111111111111');
    }
    expect(screen.getByText('Administração')).toBeTruthy();
  });

  it('disables the feature items when the selected domain is not validated', () => {
    const nav = renderSidebar([domain({ gero_validate: false })], 0);
    for (const name of FEATURES) expect(nav.getByRole('link', { name }).getAttribute('aria-disabled')).toBe('true');
    expect(nav.getByRole('link', { name: 'Domínios' }).getAttribute('aria-disabled')).toBeNull();
  });

  it('disables the feature items when the selected domain is inactive', () => {
    const nav = renderSidebar([domain({ status: 'Inactive' })], 0);
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
