import { Modal } from '@mantine/core';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderPage } from '../test/render-page.tsx';

describe('theme', () => {
  it("gives every dialog's close button the name 'Fechar'", async () => {
    renderPage(
      <Modal opened onClose={() => {}} title="Adicionando um novo domínio">
        conteúdo
      </Modal>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Adicionando um novo domínio' });
    expect(dialog).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Fechar' })).toBeTruthy();
  });
});
