import { msg } from '@impeto/shared';
import {
  Alert,
  Button,
  Group,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { isNotEmpty, useForm } from '@mantine/form';
import { IconArrowLeft, IconBuilding, IconMailCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { isApiError } from '../../../lib/api.ts';
import { notifyError } from '../../../lib/notify.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import { useRemoveUnfinishedCompany } from '../api/remove-unfinished-company.ts';
import { useSignupUser } from '../api/signup-user.ts';
import { AuthLayout } from '../components/auth-layout.tsx';
import { SignupSteps } from '../components/signup-steps.tsx';
import { passwordWeaknessOf, preloadPasswordStrength } from '../password-strength.ts';

interface SignupState {
  company_uuid?: string;
  company_name?: string;
}

const FIELDS = ['name', 'username', 'email', 'password', 'password_confirmation'] as const;

export default function SignupUserPage() {
  usePageTitle('Cadastro do usuário');
  const location = useLocation();
  const state = location.state as SignupState | null;
  if (!state?.company_uuid) return <Navigate to="/signup/company" replace />;
  return <SignupUserForm companyUuid={state.company_uuid} companyName={state.company_name ?? ''} />;
}

function SignupUserForm({ companyUuid, companyName }: { companyUuid: string; companyName: string }) {
  const navigate = useNavigate();
  const signup = useSignupUser();
  const removeCompany = useRemoveUnfinishedCompany();
  const [created, setCreated] = useState(false);

  // Only required-ness is checked here; the server checks the rest, password equality included (doc 1 §5).
  const form = useForm({
    initialValues: { name: '', username: '', email: '', password: '', password_confirmation: '' },
    validate: {
      name: isNotEmpty(msg.signup.fullnameRequired),
      username: isNotEmpty(msg.signup.usernameRequired),
      email: isNotEmpty(msg.signup.emailRequired),
      password: isNotEmpty(msg.signup.passwordRequired),
      password_confirmation: isNotEmpty(msg.signup.passwordConfirmationRequired),
    },
  });

  const person = () => {
    const { name, username, email } = form.getValues();
    return { name, username, email, companies: [companyName] };
  };
  const checkPassword = async () => {
    const { password } = form.getValues();
    if (!password) return true;
    const weakness = await passwordWeaknessOf(password, person());
    if (weakness) form.setFieldError('password', weakness);
    return !weakness;
  };
  const passwordProps = form.getInputProps('password');

  const submit = form.onSubmit(async (values) => {
    if (!(await checkPassword())) return;
    signup.mutate(
      {
        user: {
          company_uuid: companyUuid,
          ...values,
          name: values.name.trim(),
          username: values.username.trim(),
          email: values.email.trim(),
        },
      },
      {
        onSuccess: () => setCreated(true),
        onError: (error) => {
          notifyError(error);
          if (isApiError(error) && error.fields) {
            for (const [key, text] of Object.entries(error.fields)) {
              const field = key.split('.').pop();
              if (field && (FIELDS as readonly string[]).includes(field)) form.setFieldError(field, text);
            }
          }
        },
      },
    );
  });

  // Leaving the user step removes the unfinished company (READINGS A-10).
  const cancel = () => {
    removeCompany.mutate(companyUuid, {
      onSettled: () => navigate('/signup/company', { replace: true }),
    });
  };

  if (created) {
    return (
      <AuthLayout withTopBar width={520}>
        <SignupSteps active={2} />
        <Stack align="center" gap="md" ta="center">
          <ThemeIcon size={64} radius="xl" variant="light" color="green">
            <IconMailCheck size={34} />
          </ThemeIcon>
          <Title order={2} fz={24}>
            {msg.signup.userCreated}
          </Title>
          <Text c="dimmed">{msg.signup.confirmationSent}</Text>
          <Button component={Link} to="/signin" size="md" mt="sm">
            Ir para o login
          </Button>
        </Stack>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout withTopBar width={560}>
      <SignupSteps active={1} />
      <form onSubmit={submit} noValidate aria-label="Cadastro do usuário">
        <Stack gap="md">
          <div>
            <Title order={2} fz={24}>
              Seus dados de acesso
            </Title>
            <Text c="dimmed" size="sm" mt={4}>
              Você será o primeiro usuário desta empresa.
            </Text>
          </div>
          <Alert variant="light" icon={<IconBuilding size={18} />} title="Empresa">
            <Text size="sm" data-testid="company-name">
              {companyName}
            </Text>
          </Alert>
          <TextInput label="Nome completo" name="name" autoComplete="name" {...form.getInputProps('name')} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Nome de usuário"
              name="username"
              autoComplete="username"
              {...form.getInputProps('username')}
            />
            <TextInput label="E-mail" name="email" type="email" autoComplete="email" {...form.getInputProps('email')} />
            <PasswordInput
              label="Senha"
              name="password"
              autoComplete="new-password"
              description="Pelo menos 8 caracteres; prefira uma frase com palavras pouco comuns."
              {...passwordProps}
              onFocus={preloadPasswordStrength}
              onBlur={(event) => {
                passwordProps.onBlur?.(event);
                void checkPassword();
              }}
            />
            <PasswordInput
              label="Confirmação de senha"
              name="password_confirmation"
              autoComplete="new-password"
              {...form.getInputProps('password_confirmation')}
            />
          </SimpleGrid>
          <Group justify="space-between" mt="sm">
            <Button
              variant="default"
              leftSection={<IconArrowLeft size={16} />}
              onClick={cancel}
              loading={removeCompany.isPending}
            >
              Cancelar cadastro
            </Button>
            <Button type="submit" loading={signup.isPending}>
              Criar conta
            </Button>
          </Group>
        </Stack>
      </form>
    </AuthLayout>
  );
}
