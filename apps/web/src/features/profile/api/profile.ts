import type { ChangePasswordInput, Profile, UserSession } from '@impeto/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

const profileKey = ['profile'] as const;
const sessionsKey = ['profile', 'sessions'] as const;

export const useProfile = () =>
  useQuery({ queryKey: profileKey, queryFn: async () => (await api.get<Profile>('/profile')).data });

export const useSessions = () =>
  useQuery({
    queryKey: sessionsKey,
    queryFn: async () => (await api.get<UserSession[]>('/profile/sessions')).data,
  });

/** Every profile change answers the profile: the page shows it at once. */
function useProfileMutation<V>(send: (values: V) => Promise<{ message: string; data: Profile }>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: ({ data }) => queryClient.setQueryData(profileKey, data),
  });
}

export const useUpdateName = () =>
  useProfileMutation((name: string) => api.put<Profile>('/profile', { profile: { name } }));

export const useRequestEmailChange = () =>
  useProfileMutation((email: string) => api.post<Profile>('/profile/email', { profile: { email } }));

export const useConfirmEmailChange = () =>
  useProfileMutation((token: string) => api.put<Profile>('/profile/email', { profile: { token } }));

function useSessionsMutation<V>(send: (values: V) => Promise<{ message: string }>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}

export const useChangePassword = () =>
  useSessionsMutation((profile: ChangePasswordInput) => api.put<null>('/profile/password', { profile }));

export const useEndSession = () =>
  useSessionsMutation((id: string) => api.delete<null>(`/profile/sessions/${encodeURIComponent(id)}`));

export const useEndOtherSessions = () => useSessionsMutation(() => api.delete<null>('/profile/sessions'));
