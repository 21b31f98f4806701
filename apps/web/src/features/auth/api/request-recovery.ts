import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** Recovery reuses POST /users/signup with a user whose only key is email (READINGS A-11). */
export const requestRecovery = (email: string) =>
  api.post<unknown>('/users/signup', { user: { email } }, { auth: false });

export const useRequestRecovery = () => useMutation({ mutationFn: requestRecovery });
