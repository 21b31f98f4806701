import { describe, expect, it } from 'vitest';
import { clearSession, getSession, SESSION_KEY, type Session, saveSession, sessionFromSignin } from './session.ts';

const base: Session = {
  name: 'Ana Souza',
  username: 'ana',
  company_uuid: 'c1',
  user_uuid: 'u1',
  bearer_token: 't1',
  expire_date: new Date(Date.now() + 60_000).toISOString(),
  modules: { analytics: true },
};

describe('session store', () => {
  it('keeps an unchecked session in sessionStorage and a kept one in localStorage', () => {
    saveSession(base, false);
    expect(sessionStorage.getItem(SESSION_KEY)).not.toBeNull();
    expect(localStorage.getItem(SESSION_KEY)).toBeNull();
    saveSession(base, true);
    expect(localStorage.getItem(SESSION_KEY)).not.toBeNull();
    expect(sessionStorage.getItem(SESSION_KEY)).toBeNull();
    expect(getSession()?.username).toBe('ana');
  });

  it('removes an expired session and reports no session', () => {
    saveSession({ ...base, expire_date: new Date(Date.now() - 1000).toISOString() }, true);
    expect(getSession()).toBeNull();
    expect(localStorage.getItem(SESSION_KEY)).toBeNull();
  });

  it('is valid only while now is before expire_date', () => {
    const expires = Date.parse(base.expire_date);
    saveSession(base, false);
    expect(getSession(expires - 1)).not.toBeNull();
    expect(getSession(expires)).toBeNull();
    expect(sessionStorage.getItem(SESSION_KEY)).toBeNull();
  });

  it('maps the sign-in answer to the stored shape, modules as a name-to-true map', () => {
    const session = sessionFromSignin({
      name: 'Ana Souza',
      username: 'ana',
      token: 'tok',
      company_uuid: 'c1',
      user_uuid: 'u1',
      role: { modules: [{ name: 'analytics' }, { name: 'domains' }] },
      cookie: { expires: '2030-01-01T00:00:00.000Z' },
    });
    expect(session).toEqual({
      name: 'Ana Souza',
      username: 'ana',
      company_uuid: 'c1',
      user_uuid: 'u1',
      bearer_token: 'tok',
      expire_date: '2030-01-01T00:00:00.000Z',
      modules: { analytics: true, domains: true },
    });
  });

  it('clears both stores', () => {
    saveSession(base, true);
    clearSession('logout');
    expect(getSession()).toBeNull();
  });
});
