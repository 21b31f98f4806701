import type { SigninData } from '@impeto/shared';
import { useSyncExternalStore } from 'react';
import { notifyStorage, readJson, removeKey, storageVersion, subscribeStorage, writeJson } from './storage.ts';

export const SESSION_KEY = 'impeto.session';
const ORIGIN_KEY = 'impeto.origin';
/** The domain list and selection (lib/domain-store.ts) live and die with the session. */
export const DOMAIN_KEYS = { list: 'impeto.domains', selected: 'impeto.selected_domain' } as const;

const clearDomainKeys = () => {
  removeKey('session', DOMAIN_KEYS.selected, false);
  removeKey('session', DOMAIN_KEYS.list, false);
};

/** The session as the spec stores it (doc 1 §3), plus the user's display name. */
export interface Session {
  name: string;
  username: string;
  company_uuid: string;
  user_uuid: string;
  bearer_token: string;
  expire_date: string;
  modules: Record<string, true>;
}

export type SessionEndReason = 'logout' | 'expired' | 'unauthorized';
let lastEndReason: SessionEndReason | null = null;

export const isSessionValid = (session: Pick<Session, 'expire_date'>, now = Date.now()) => {
  const expires = Date.parse(session.expire_date);
  return Number.isFinite(expires) && now < expires;
};

/** Returns the stored session; an expired one is removed and null is returned. */
export function getSession(now = Date.now()): Session | null {
  const stored = readJson<Session>('session', SESSION_KEY) ?? readJson<Session>('local', SESSION_KEY);
  if (!stored) return null;
  if (!stored.bearer_token || !isSessionValid(stored, now)) {
    // Read during render: remove without notifying, the caller already sees null.
    lastEndReason = 'expired';
    removeKey('session', SESSION_KEY, false);
    removeKey('local', SESSION_KEY, false);
    clearDomainKeys();
    return null;
  }
  return stored;
}

export const sessionFromSignin = (data: SigninData): Session => ({
  name: data.name,
  username: data.username,
  company_uuid: data.company_uuid,
  user_uuid: data.user_uuid,
  bearer_token: data.token,
  expire_date: data.cookie.expires,
  modules: Object.fromEntries((data.role?.modules ?? []).map((m) => [m.name, true as const])),
});

/** keep_connected (READINGS A-3): localStorage survives closing the tab; otherwise sessionStorage. */
export function saveSession(session: Session, keepConnected: boolean) {
  lastEndReason = null;
  removeKey(keepConnected ? 'session' : 'local', SESSION_KEY);
  writeJson(keepConnected ? 'local' : 'session', SESSION_KEY, session);
}

export function clearSession(reason: SessionEndReason) {
  lastEndReason = reason;
  clearDomainKeys();
  removeKey('session', SESSION_KEY);
  removeKey('local', SESSION_KEY);
}

export const getSessionEndReason = () => lastEndReason;

export const getToken = () => getSession()?.bearer_token ?? null;

/** The page a signed-out user was trying to reach (READINGS A-2). */
export const rememberOrigin = (origin: string) => {
  try {
    sessionStorage.setItem(ORIGIN_KEY, origin);
  } catch {}
};
export const takeRememberedOrigin = (): string | null => {
  try {
    const origin = sessionStorage.getItem(ORIGIN_KEY);
    sessionStorage.removeItem(ORIGIN_KEY);
    return origin;
  } catch {
    return null;
  }
};
export const forgetOrigin = () => {
  try {
    sessionStorage.removeItem(ORIGIN_KEY);
  } catch {}
};

/** The current session, re-read whenever the stores change; re-checks expiry on each render. */
export function useSession(): Session | null {
  useSyncExternalStore(subscribeStorage, storageVersion, storageVersion);
  return getSession();
}

export const refreshSessionSubscribers = notifyStorage;
