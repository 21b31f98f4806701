import { api } from '../../../lib/api.ts';

/** Revokes the token on the server; the caller ignores failures (the local session goes anyway). */
export const logout = () => api.post<unknown>('/users/logout');
