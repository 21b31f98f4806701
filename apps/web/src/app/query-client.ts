import { QueryClient } from '@tanstack/react-query';
import { isApiError } from '../lib/api.ts';

export const createQueryClient = () =>
  new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failures, error) => !(isApiError(error) && error.status > 0 && error.status < 500) && failures < 2,
      },
      mutations: { retry: false },
    },
  });

export const queryClient = createQueryClient();
