import type { ResetPasswordInput } from '@impeto/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const resetPassword = (input: ResetPasswordInput) => api.put<unknown>('/users/password', input, { auth: false });

export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
