import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../test/render-page.tsx';
import { ScheduleModal } from './schedule-modal.tsx';

describe('schedule picker (Agendamento)', () => {
  afterEach(() => vi.useRealTimers());

  it('says so when a typed minute off the 15-minute grid is moved, instead of changing it silently', async () => {
    // 10:05 in São Paulo: the picker offers 10:15, and the typed :20 moves to 10:30, still ahead of the clock (run
    // past :30 of an hour on the real clock, that time was already gone and the test failed half of each hour).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-03-12T13:05:00.000Z'));
    const onSchedule = vi.fn();
    renderPage(<ScheduleModal opened onClose={() => {}} title="Agendar momentum" onSchedule={onSchedule} />);
    const dialog = await screen.findByRole('dialog', { name: 'Agendar momentum' });
    expect(dialog.textContent).toContain('de 15 em 15 minutos');
    await userEvent.click(screen.getByRole('button', { name: /Data e hora/ }));
    const minutes = await screen.findByRole('spinbutton', { name: 'Minutos' });
    // Typed, as a user types '20' into the minutes field.
    fireEvent.change(minutes, { target: { value: '20' } });
    expect((minutes as HTMLInputElement).value).toBe('20');
    // The first Agendar moves it to the grid and says so; nothing is scheduled at a time the user did not see.
    await userEvent.click(screen.getByRole('button', { name: 'Agendar' }));
    const note = await screen.findByRole('status', { name: 'Ajuste do horário' });
    expect(note.textContent).toMatch(/:20 não está na grade de 15 minutos: o horário ficou .*:30/);
    expect(onSchedule).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Agendar' }));
    expect(onSchedule).toHaveBeenCalledTimes(1);
    expect(new Date(onSchedule.mock.calls[0]![0]).getUTCMinutes()).toBe(30);
  });
});
