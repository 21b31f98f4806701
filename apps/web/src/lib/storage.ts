/** A tiny JSON store over Web Storage that React can subscribe to (useSyncExternalStore). */
type Listener = () => void;

const listeners = new Set<Listener>();
let version = 0;

export const subscribeStorage = (listener: Listener) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

export const storageVersion = () => version;

export const notifyStorage = () => {
  version++;
  for (const listener of listeners) listener();
};

const safeStorage = (kind: 'local' | 'session'): Storage | undefined => {
  try {
    return kind === 'local' ? globalThis.localStorage : globalThis.sessionStorage;
  } catch {
    return undefined;
  }
};

export const readJson = <T>(kind: 'local' | 'session', key: string): T | null => {
  const raw = safeStorage(kind)?.getItem(key);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
};

export const writeJson = (kind: 'local' | 'session', key: string, value: unknown) => {
  safeStorage(kind)?.setItem(key, JSON.stringify(value));
  notifyStorage();
};

export const removeKey = (kind: 'local' | 'session', key: string, notify = true) => {
  safeStorage(kind)?.removeItem(key);
  if (notify) notifyStorage();
};

if (typeof window !== 'undefined') {
  // Another tab signing out or in keeps this one in step.
  window.addEventListener('storage', () => notifyStorage());
}
