import { notifications } from '@mantine/notifications';
import { errorMessage } from './api.ts';

export const notifyError = (errorOrMessage: unknown) =>
  notifications.show({
    color: 'red',
    title: 'Erro',
    message: typeof errorOrMessage === 'string' ? errorOrMessage : errorMessage(errorOrMessage),
  });

export const notifySuccess = (message: string) => notifications.show({ color: 'green', title: 'Sucesso', message });
