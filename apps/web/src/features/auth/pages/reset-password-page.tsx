import { msg, resetPasswordSchema } from '@impeto/shared';
import { Button, Group, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconLinkOff } from '@tabler/icons-react';
import { useNavigate, useSearchParams } from 'react-router';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import { useResetPassword } from '../api/reset-password.ts';
import { AuthLayout } from '../components/auth-layout.tsx';
import { ResultCard } from '../components/result-card.tsx';
import { passwordWeaknessOf, preloadPasswordStrength } from '../password-strength.ts';

export default function ResetPasswordPage() {
  usePageTitle('Nova senha');
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  if (!token) {
    return (
      <AuthLayout>
        <ResultCard
          icon={<IconLinkOff size={34} />}
          color="red"
          title="Link inválido"
          description={msg.recovery.tokenInvalid}
          action={{ label: 'Solicitar um novo link', to: '/recovery' }}
        />
      </AuthLayout>
    );
  }
  return <ResetPasswordForm token={token} />;
}

function ResetPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const reset = useResetPassword();
  const form = useForm({
    initialValues: { user: { token, password: '', password_confirmation: '' } },
    validate: schemaResolver(resetPasswordSchema, { sync: true }),
  });

  const checkPassword = async () => {
    const { password } = form.getValues().user;
    if (!password) return true;
    const weakness = await passwordWeaknessOf(password);
    if (weakness) form.setFieldError('user.password', weakness);
    return !weakness;
  };
  const passwordProps = form.getInputProps('user.password');

  const submit = form.onSubmit(async (values) => {
    if (!(await checkPassword())) return;
    reset.mutate(values, {
      onSuccess: ({ message }) => {
        notifySuccess(message || msg.recovery.passwordChanged);
        navigate('/signin', { replace: true });
      },
      onError: notifyError,
    });
  });

  return (
    <AuthLayout>
      <form onSubmit={submit} noValidate aria-label="Redefinir senha">
        <Stack gap="md">
          <div>
            <Title order={2} fz={24}>
              Criar nova senha
            </Title>
            <Text c="dimmed" size="sm" mt={4}>
              Escolha uma senha com pelo menos 8 caracteres e difícil de adivinhar, como uma frase com palavras pouco
              comuns.
            </Text>
          </div>
          <PasswordInput
            label="Nova senha"
            name="password"
            autoComplete="new-password"
            {...passwordProps}
            onFocus={preloadPasswordStrength}
            onBlur={(event) => {
              passwordProps.onBlur?.(event);
              void checkPassword();
            }}
          />
          <PasswordInput
            label="Confirmação da nova senha"
            name="password_confirmation"
            autoComplete="new-password"
            {...form.getInputProps('user.password_confirmation')}
          />
          <Group justify="space-between" mt="sm">
            <Button variant="default" onClick={() => navigate('/signin')}>
              Voltar para o login
            </Button>
            <Button type="submit" loading={reset.isPending}>
              Salvar nova senha
            </Button>
          </Group>
        </Stack>
      </form>
    </AuthLayout>
  );
}
