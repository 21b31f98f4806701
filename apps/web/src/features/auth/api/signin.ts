import type { SigninData, SigninInput } from '@impeto/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const signin = (input: SigninInput) => api.post<SigninData>('/users/signin', input, { auth: false });

export const useSignin = () => useMutation({ mutationFn: signin });
