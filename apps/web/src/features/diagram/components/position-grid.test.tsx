import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../../test/render-page.tsx';
import { ALERT_POSITIONS, type AlertPosition } from '../webview.ts';
import { PositionGrid } from './position-grid.tsx';

const labels = Object.fromEntries(ALERT_POSITIONS.map((p) => [p, `posição ${p}`])) as Record<AlertPosition, string>;

describe('alert position', () => {
  it('is a 3×3 grid of radios in reading order, the chosen one checked, a click choosing another', async () => {
    const onChange = vi.fn();
    renderPage(<PositionGrid value="topRight" onChange={onChange} labels={labels} />);
    const group = screen.getByRole('radiogroup', { name: 'Posição' });
    const radios = screen.getAllByRole('radio');
    expect(group).toBeTruthy();
    expect(radios.map((r) => r.getAttribute('aria-label'))).toEqual(ALERT_POSITIONS.map((p) => labels[p]));
    expect(screen.getByRole('radio', { name: labels.topRight }).getAttribute('aria-checked')).toBe('true');
    expect(screen.queryByRole('combobox')).toBeNull();
    await userEvent.click(screen.getByRole('radio', { name: labels.bottomLeft }));
    expect(onChange).toHaveBeenCalledWith('bottomLeft');
  });
});
