import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { DOMAIN, renderPage } from '../../test/render-page.tsx';
import { emptyTrigger, type TriggerState } from './block-state.ts';
import { describeTrigger } from './block-summary.ts';
import { TriggerEditor } from './trigger-editor.tsx';

function Editor({ initial }: { initial: TriggerState }) {
  const [value, setValue] = useState(initial);
  return <TriggerEditor domainUuid={DOMAIN} host="loja.example.com" value={value} onChange={setValue} />;
}

describe('abandon trigger', () => {
  it('says in the trigger itself that the message goes to those who did NOT reach the conversion page', async () => {
    renderPage(
      <Editor
        initial={{
          ...emptyTrigger(),
          filter: 'abandon',
          comparation: 'contain',
          comparation2: 'contain',
          value: ['/carrinho'],
          value2: ['/obrigado'],
          dischargeIn: [1800],
        }}
      />,
    );
    const who = screen.getByRole('note', { name: 'Quem recebe' });
    expect(who.textContent).toBe(
      'A mensagem vai para quem visitou uma página que contém “/carrinho” e, em até 30m (Disparar após), não chegou a uma página que contém “/obrigado”. Quem chegar a ela não recebe.',
    );
    await userEvent.click(screen.getByRole('combobox', { name: 'Página de conversão (quem chega não recebe)' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Não contém' }));
    expect(
      within(screen.getByRole('note', { name: 'Quem recebe' })).getByText(
        /não chegou a uma página que não contém “\/obrigado”/,
      ),
    ).toBeTruthy();
  });

  it('says the same in the summary', () => {
    const block = {
      type: 'trigger',
      values: [
        {
          filter: 'abandon',
          comparation: 'contain',
          comparation2: 'contain',
          value: ['/carrinho'],
          value2: ['/obrigado'],
          dischargeIn: [],
        },
      ],
    };
    expect(describeTrigger(block)).toBe(
      'Abandono: a mensagem vai para quem visitou uma página que contém “/carrinho” e, até a hora do envio, não chegou a uma página que contém “/obrigado”. Quem chegar a ela não recebe.',
    );
  });
});
