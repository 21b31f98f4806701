import { momentumMessages as mm, type Worktime } from '@impeto/shared';
import { notifications } from '@mantine/notifications';
import dayjs from 'dayjs';
import { isApiError } from '../../lib/api.ts';
import {
  type Checked,
  checkFinish,
  checkWorktime,
  type FieldErrors,
  type FinishState,
  isWorktimeSet,
  type WorktimeState,
} from './block-state.ts';
import { fromZonedInput } from './zoned-time.ts';

// The save rules every form with these blocks follows (the v2 momentum form and the GCD manager, spec doc 2 §4, §5).

/** After a full save the form toasts and leaves for its list after 2 s (spec doc 2 §4, §9). */
export const REDIRECT_DELAY_MS = 2000;

/** Cronograma is sent only when weekdays, start and stop are all set (spec doc 2 §5). */
export const toWorktime = (w: WorktimeState): Worktime | null =>
  isWorktimeSet(w) ? { weekdays: w.weekdays, start_at: w.start_at, stop_at: w.stop_at } : null;

/** The finish date doubles as the worktime's end_date (spec doc 2 §3.1); null when there is neither. */
export function worktimeWithEndDate(worktime: Worktime | null | undefined, blocks: unknown[]): Worktime | null {
  const finish = (blocks as { type?: string; values?: { value?: unknown }[] }[]).find((b) => b?.type === 'finish')
    ?.values?.[0]?.value;
  const endDate = typeof finish === 'string' ? finish : null;
  if (worktime) return { ...worktime, end_date: endDate };
  return endDate ? { end_date: endDate } : null;
}

/** The Cronograma's own messages ('* O dia da semana é obrigatório.', …) when it is partly filled. */
export const worktimeErrors = (w: WorktimeState): FieldErrors | undefined => {
  const checked = checkWorktime(w);
  return checked.ok ? undefined : checked.errors;
};

/** The finish block when switched on: valid and not before now. */
export function checkFinishFuture(f: FinishState): Checked<unknown> {
  const checked = checkFinish(f);
  if (!checked.ok) return checked;
  if (dayjs(fromZonedInput(f.value)).isBefore(dayjs())) return { ok: false, errors: { value: mm.finishPast } };
  return checked;
}

/** A refused save shows the server's message; no answer at all shows the spec's save failure (§8). */
export const saveFailedMessage = (error: unknown, fallback: string = mm.saveFailed) =>
  isApiError(error) && error.message && error.status !== 0 ? error.message : fallback;

/** 'Preencha todos os campos corretamente' as a warning, and back to the top where the first error is. */
export function warnIncomplete() {
  notifications.show({ color: 'yellow', title: 'Atenção', message: mm.incomplete });
  try {
    window.scrollTo({ top: 0, behavior: 'smooth' });
  } catch {
    // jsdom has no scrolling.
  }
}
