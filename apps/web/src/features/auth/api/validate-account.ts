import { api } from '../../../lib/api.ts';

export const validateAccount = (cid: string) => api.put<unknown>('/users/validate', { user: { cid } }, { auth: false });
