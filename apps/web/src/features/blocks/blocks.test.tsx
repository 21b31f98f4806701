import { filterMessages, momentumBlocksSchema } from '@impeto/shared';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { type FetchHandler, ok, renderPage } from '../../test/render-page.tsx';
import {
  channelFromBlock,
  checkDispatcher,
  checkFilter,
  checkTrigger,
  dispatcherBlockInput,
  emptyChannel,
  emptyFilter,
  emptyTrigger,
  type FilterState,
  filterFromBlock,
} from './block-state.ts';
import { pushContentOf } from './block-summary.ts';
import { FilterEditor } from './filter-editor.tsx';
import { IntervalInput } from './interval-input.tsx';
import { cutMessage, NO_MESSAGE, NotificationPreview, TITLE_PROMPT } from './notification-preview.tsx';

function Interval({ initial = [], onChange }: { initial?: number[]; onChange?: (v: number[]) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <IntervalInput
      label="Disparar após"
      value={value}
      onChange={(v) => {
        setValue(v);
        onChange?.(v);
      }}
    />
  );
}

describe('interval input', () => {
  it('turns text into seconds on Enter and ;, and shows seconds as text', async () => {
    const onChange = vi.fn();
    renderPage(<Interval initial={[90]} onChange={onChange} />);
    expect(screen.getByText('1m 30s')).toBeTruthy();
    expect(screen.getByText(filterMessages.intervalHint)).toBeTruthy();
    const input = screen.getByRole('combobox', { name: 'Disparar após' });
    await userEvent.type(input, '1D 4h 30m{enter}');
    expect(onChange).toHaveBeenLastCalledWith([90, 102600]);
    expect(screen.getByText('1D 4h 30m')).toBeTruthy();
    await userEvent.type(input, '2h;');
    expect(onChange).toHaveBeenLastCalledWith([90, 102600, 7200]);
  });

  it('refuses an unknown unit with the spec error and keeps the text', async () => {
    const onChange = vi.fn();
    renderPage(<Interval onChange={onChange} />);
    const input = screen.getByRole('combobox', { name: 'Disparar após' }) as HTMLInputElement;
    await userEvent.type(input, '3x{enter}');
    expect(await screen.findByText(filterMessages.intervalError)).toBeTruthy();
    expect(onChange).not.toHaveBeenCalled();
  });
});

describe('notification preview', () => {
  it('cuts the closed message at 50 characters plus an ellipsis', () => {
    const long = 'a'.repeat(60);
    expect(cutMessage(long)).toBe(`${'a'.repeat(50)}…`);
    expect(cutMessage('curta')).toBe('curta');
    renderPage(<NotificationPreview title="Oferta" message={long} siteRoot="https://loja.example.com" />);
    expect(screen.getByText(`${'a'.repeat(50)}…`)).toBeTruthy();
    expect(screen.getByText(/loja\.example\.com/)).toBeTruthy();
  });

  it('opens to the whole message and the large image on every system, Linux included', async () => {
    const long = `${'Frete grátis em todo o site. '.repeat(3)}Só hoje!`;
    renderPage(
      <NotificationPreview
        title="Oferta"
        message={long}
        image="https://loja.example.com/banner.png"
        siteRoot="https://loja.example.com"
      />,
    );
    const stage = () => screen.getByTestId('notification-stage');
    const images = () => [...stage().querySelectorAll('img')].map((i) => i.getAttribute('src'));
    for (const os of ['Android', 'iOS', 'macOS', 'Windows', 'Linux']) {
      await userEvent.click(screen.getByText(os));
      expect(stage().textContent).toContain(cutMessage(long));
      expect(images(), `${os} closed shows the image`).toContain('https://loja.example.com/banner.png');
    }
    await userEvent.click(screen.getByRole('button', { name: 'Ver aberta' }));
    expect(screen.getByRole('button', { name: 'Ver fechada' }).getAttribute('aria-pressed')).toBe('true');
    for (const os of ['Android', 'iOS', 'macOS', 'Windows', 'Linux']) {
      await userEvent.click(screen.getByText(os));
      expect(stage().textContent, `${os} opened shows the whole message`).toContain(long);
      expect(images(), `${os} opened shows the image`).toContain('https://loja.example.com/banner.png');
    }
  });

  it('shows the buttons under the opened notification, and always on Windows as its toasts do', async () => {
    const buttons = [
      { title: 'Ver oferta', url: 'https://loja.example.com/oferta' },
      { title: 'Depois', url: 'https://loja.example.com/' },
    ];
    renderPage(
      <NotificationPreview title="Oferta" message="Só hoje" buttons={buttons} siteRoot="https://loja.example.com" />,
    );
    const shown = () => screen.queryByTestId('notification-buttons')?.textContent ?? '';
    expect(shown()).toBe('');
    await userEvent.click(screen.getByText('Windows'));
    expect(shown()).toBe('Ver ofertaDepois');
    await userEvent.click(screen.getByText('Android'));
    expect(shown()).toBe('');
    await userEvent.click(screen.getByRole('button', { name: 'Ver aberta' }));
    for (const os of ['Android', 'iOS', 'macOS', 'Windows', 'Linux']) {
      await userEvent.click(screen.getByText(os));
      expect(shown(), os).toBe('Ver ofertaDepois');
    }
  });

  it('keeps the push buttons from the stored block to the saved one, in the form and in the diagram', () => {
    const buttons = [{ title: 'Ver oferta', url: 'https://loja.example.com/oferta' }];
    const block = {
      type: 'dispatcher',
      values: [{ ...dispatcherBlockInput(emptyChannel()).values[0], notification_buttons: buttons }],
    };
    const state = channelFromBlock(block, 'c-1');
    expect(state.buttons).toEqual(buttons);
    expect(dispatcherBlockInput(state).values[0]).toMatchObject({ notification_buttons: buttons });
    expect(dispatcherBlockInput({ ...state, buttons: [] }).values[0]).not.toHaveProperty('notification_buttons');
    expect(pushContentOf(block).buttons).toEqual(buttons);
  });

  it('asks for the title without one, and says Sem mensagem without a message', async () => {
    const { rerender } = renderPage(<NotificationPreview title="" message="Olá" siteRoot="https://loja.example.com" />);
    expect(screen.getByText(TITLE_PROMPT)).toBeTruthy();
    rerender(<NotificationPreview title="Oferta" message="" siteRoot="https://loja.example.com" />);
    expect(screen.getByText(NO_MESSAGE)).toBeTruthy();
    for (const os of ['iOS', 'macOS', 'Windows', 'Linux']) {
      await userEvent.click(screen.getByText(os));
      expect(screen.getByText('Oferta')).toBeTruthy();
    }
  });
});

describe('block state', () => {
  it('builds blocks that the shared schema accepts', () => {
    const filter = checkFilter({
      enabled: true,
      regex: false,
      conditions: [
        { filter: 'user_stored_data.createdAt', comparation: '>', value: ['2026-01-02'], value2: '', logical: 'and' },
        { filter: 'user_stored_data.navigator.mobile', comparation: '==', value: ['Sim'], value2: '', logical: 'or' },
      ],
    });
    const trigger = checkTrigger({
      ...emptyTrigger(),
      filter: 'pageview',
      comparation: 'contain',
      value: ['/carrinho'],
      dischargeIn: [3600],
    });
    const dispatcher = checkDispatcher({
      ...emptyChannel(),
      name: 'n',
      title: 't',
      message: 'm',
      icon_uri: 'https://a.com/i.png',
      redirect_uri: 'https://a.com',
    });
    expect(filter.ok && trigger.ok && dispatcher.ok).toBe(true);
    if (!filter.ok || !trigger.ok || !dispatcher.ok) return;
    expect(filter.block.values[0]?.value).toEqual(['2026-01-02T00:00:00.000Z']);
    expect(filter.block.values[1]).toMatchObject({ value: [true], logical: 'or' });
    expect(momentumBlocksSchema.safeParse([filter.block, trigger.block, dispatcher.block]).success).toBe(true);
    expect(filterFromBlock(filter.block).conditions[0]?.value).toEqual(['2026-01-02']);
  });

  it('sends everyone when the filter is off', () => {
    const off = checkFilter(emptyFilter());
    expect(off.ok && off.block.values).toEqual([{ filter: 'all', value: [] }]);
  });
});

describe('filter values search', () => {
  it("shows what the server found for 'sao' (São Paulo) instead of filtering it out again by accents", async () => {
    const D = '11111111-1111-4111-8111-111111111111';
    const key = 'user_stored_data.client.location.region';
    const routes: FetchHandler = (url) => {
      if (url === `/api/person/filter/${D}`) return ok([{ key, name: 'Estado', mask: 'select' }]);
      if (url.startsWith(`/api/person/search/${D}/filter/${encodeURIComponent(key)}`)) {
        const found = url.includes('search=sao')
          ? [{ name: 'São Paulo', value: 'São Paulo', emoji: '📍', code: 'SP', initials: 'SP' }]
          : [];
        return ok(found);
      }
      return undefined;
    };
    function Editor() {
      const [value, setValue] = useState<FilterState>({
        ...emptyFilter(),
        enabled: true,
        conditions: [{ ...emptyFilter().conditions[0]!, filter: key, comparation: '==' }],
      });
      return <FilterEditor domainUuid={D} value={value} onChange={setValue} />;
    }
    renderPage(<Editor />, { fetch: routes });
    await userEvent.type(await screen.findByRole('combobox', { name: 'Valores' }), 'sao');
    expect(await screen.findByRole('option', { name: /São Paulo/ }, { timeout: 5000 })).toBeTruthy();
  });
});
