import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import { errorMessage } from './api.ts';

export const notifyError = (errorOrMessage: unknown) =>
  notifications.show({
    color: 'red',
    title: 'Erro',
    message: typeof errorOrMessage === 'string' ? errorOrMessage : errorMessage(errorOrMessage),
  });

export const notifySuccess = (message: string) => notifications.show({ color: 'green', title: 'Sucesso', message });

/**
 * A list that fails to load says so in an error toast with the server's message (doc 1 §8), once per failed
 * fetch; the page keeps its inline alert with the retry.
 */
export function useLoadErrorToast(query: { isError: boolean; error: unknown; errorUpdatedAt: number }) {
  const { isError, error, errorUpdatedAt } = query;
  // biome-ignore lint/correctness/useExhaustiveDependencies: one toast per failed fetch, keyed by its time.
  useEffect(() => {
    if (isError) notifyError(error);
  }, [isError, errorUpdatedAt]);
}
