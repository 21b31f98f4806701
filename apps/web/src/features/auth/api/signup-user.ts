import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export interface SignupUserBody {
  user: {
    company_uuid: string;
    name: string;
    username: string;
    email: string;
    password: string;
    password_confirmation: string;
  };
}

export const signupUser = (body: SignupUserBody) => api.post<unknown>('/users/signup', body, { auth: false });

export const useSignupUser = () => useMutation({ mutationFn: signupUser });
