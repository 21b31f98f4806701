import { takeRememberedOrigin } from '../../lib/session.ts';

const isSafePath = (path: unknown): path is string =>
  typeof path === 'string' && path.startsWith('/') && !path.startsWith('//');

/** Where sign-in lands (READINGS A-2): the remembered origin, else /. */
export function resolveOrigin(state: unknown): string {
  const fromState = (state as { from?: unknown } | null)?.from;
  const stored = takeRememberedOrigin();
  if (isSafePath(fromState) && !fromState.startsWith('/signin')) return fromState;
  if (isSafePath(stored) && !stored.startsWith('/signin')) return stored;
  return '/';
}
