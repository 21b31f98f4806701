import { experimentMessages, momentumMessages as mm } from '@impeto/shared';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DOMAIN, type FetchHandler, ok, renderPage } from '../../test/render-page.tsx';
import { ID, itemOf, PUSH, setUpDiagram } from './journey-test-kit.tsx';

/* The channel block's 'Teste A/B' in the diagram (issue #25): variants, shares, control group; save and reopen. */

setUpDiagram();

function open(stored: () => unknown, onSave: (body: Record<string, unknown>) => void) {
  const serve: FetchHandler = (url, init) => {
    if (url === `/api/domain/channels/${DOMAIN}`)
      return ok([{ uuid: PUSH, channel_type: 'CELL_NOTIFICATION', domain_uuid: DOMAIN, properties: {}, active: true }]);
    if (url === `/api/person/filter/${DOMAIN}`) return ok([]);
    if (url === `/api/momentum/list?id=${ID}`) return ok(stored());
    if (url === '/api/momentum/update' && init.method === 'PUT') {
      onSave(JSON.parse(String(init.body)));
      return { body: { message: mm.draftUpdated, data: stored() } };
    }
    return undefined;
  };
  return renderPage(`/momentum/diagram?domain=${DOMAIN}&id=${ID}`, { session: true, fetch: serve });
}
const title = () => screen.getByRole('textbox', { name: /^Título/ }) as HTMLInputElement;
const number = (label: string) => screen.getByRole('textbox', { name: label }) as HTMLInputElement;
const saveDraft = async () => {
  await userEvent.click(screen.getByRole('button', { name: 'Salvar como' }));
  await userEvent.click(await screen.findByRole('menuitem', { name: 'Rascunho' }));
};

describe('diagram channel block: Teste A/B (issue #25)', () => {
  it('variants and a control group round-trip through save and reopen; switched off, no experiment key', async () => {
    let stored = itemOf();
    const bodies: Record<string, unknown>[] = [];
    open(
      () => stored,
      (body) => bodies.push(body),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Editar Canal' }, { timeout: 15_000 }));
    await waitFor(() => expect(title().value).toBe('Esqueceu algo?'));
    const section = screen.getByRole('region', { name: 'Teste A/B' });
    await userEvent.click(within(section).getByRole('switch', { name: /Testar variantes da mensagem/ }));
    await userEvent.click(screen.getByRole('tab', { name: 'Variante B' }));
    expect(title().value).toBe('Esqueceu algo?');
    fireEvent.change(title(), { target: { value: 'Volte e ganhe frete' } });
    // The preview follows the variant shown.
    expect(screen.getAllByText('Volte e ganhe frete').length).toBeGreaterThan(0);
    // Shares that do not add up: the shared schema's message, nothing saved.
    fireEvent.change(number('Parcela da variante A'), { target: { value: '70' } });
    fireEvent.change(number('Grupo de controle'), { target: { value: '20' } });
    await saveDraft();
    expect(await screen.findByText(experimentMessages.weightsSum)).toBeTruthy();
    expect(bodies).toHaveLength(0);
    fireEvent.change(number('Parcela da variante B'), { target: { value: '30' } });
    await saveDraft();
    await waitFor(() => expect(bodies).toHaveLength(1));
    const sent = bodies[0]!;
    expect(sent.experiment).toEqual({
      control_percent: 20,
      variants: [
        { name: 'A', weight: 70, values: [expect.objectContaining({ title: 'Esqueceu algo?' })] },
        { name: 'B', weight: 30, values: [expect.objectContaining({ title: 'Volte e ganhe frete' })] },
      ],
    });

    // Reopen what the server stored.
    cleanup();
    stored = itemOf({ experiment: sent.experiment });
    open(
      () => stored,
      (body) => bodies.push(body),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Editar Canal' }, { timeout: 15_000 }));
    const tabs = within(await screen.findByRole('tablist', { name: 'Variantes da mensagem' })).getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Variante A', 'Variante B']);
    expect([number('Parcela da variante A').value, number('Parcela da variante B').value]).toEqual(['70 %', '30 %']);
    expect(number('Grupo de controle').value).toBe('20 %');
    await userEvent.click(screen.getByRole('tab', { name: 'Variante B' }));
    expect(title().value).toBe('Volte e ganhe frete');
    // Switching the test off and the control group to 0 sends no experiment at all.
    await userEvent.click(screen.getByRole('switch', { name: /Testar variantes da mensagem/ }));
    expect(screen.queryByRole('tab', { name: 'Variante B' })).toBeNull();
    fireEvent.change(number('Grupo de controle'), { target: { value: '0' } });
    await saveDraft();
    await waitFor(() => expect(bodies).toHaveLength(2));
    expect('experiment' in bodies[1]!).toBe(false);
  });
});
