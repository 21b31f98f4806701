import { recoveryFields } from '@impeto/shared';
import { Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconAt } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { notifyError } from '../../../lib/notify.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import { useRequestRecovery } from '../api/request-recovery.ts';
import { AuthLayout } from '../components/auth-layout.tsx';

export default function RecoveryPage() {
  usePageTitle('Recuperar senha');
  const navigate = useNavigate();
  const recovery = useRequestRecovery();
  const form = useForm({ initialValues: { email: '' }, validate: schemaResolver(recoveryFields, { sync: true }) });

  const submit = form.onSubmit((values) => {
    recovery.mutate(values.email.trim(), {
      onSuccess: () => navigate('/recovery/success', { state: { email: values.email.trim() } }),
      onError: notifyError,
    });
  });

  return (
    <AuthLayout>
      <form onSubmit={submit} noValidate aria-label="Recuperar senha">
        <Stack gap="md">
          <div>
            <Title order={2} fz={24}>
              Recuperar senha
            </Title>
            <Text c="dimmed" size="sm" mt={4}>
              Informe o e-mail da sua conta e enviaremos um link para você criar uma nova senha.
            </Text>
          </div>
          <TextInput
            label="E-mail"
            name="email"
            type="email"
            autoComplete="email"
            leftSection={<IconAt size={16} />}
            {...form.getInputProps('email')}
          />
          <Group justify="space-between" mt="sm">
            <Button variant="default" onClick={() => navigate('/signin')}>
              Back to Signin
            </Button>
            <Button type="submit" loading={recovery.isPending}>
              Submit
            </Button>
          </Group>
        </Stack>
      </form>
    </AuthLayout>
  );
}
