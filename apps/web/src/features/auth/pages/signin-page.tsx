import { msg, signinSchema } from '@impeto/shared';
import { isDomainAllowed } from '@impeto/shared/core';
import { Anchor, Button, Checkbox, Divider, Group, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconLock, IconUser } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { clearDomainState, setSelectedDomain, toSelectedDomain } from '../../../lib/domain-store.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import { saveSession, sessionFromSignin } from '../../../lib/session.ts';
import { domainsQueryOptions } from '../../domains/api/list-domains.ts';
import { useSignin } from '../api/signin.ts';
import { AuthLayout } from '../components/auth-layout.tsx';
import { type CaptchaHandle, CaptchaWidget } from '../components/captcha-widget.tsx';
import { LegalLinks } from '../components/legal-links.tsx';
import { resolveOrigin } from '../origin.ts';

export default function SigninPage() {
  usePageTitle('Entrar');
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signin = useSignin();
  const captcha = useRef<CaptchaHandle>(null);
  const toastShown = useRef(false);

  const form = useForm({
    initialValues: { user: { username: '', password: '' }, captcha: '', keep_connected: false },
    validate: schemaResolver(signinSchema, { sync: true }),
  });

  useEffect(() => {
    const state = location.state as { validated?: boolean } | null;
    if (!state?.validated || toastShown.current) return;
    toastShown.current = true;
    notifySuccess(msg.signin.validated);
    // History state survives a reload: drop the flag so the greeting is shown once.
    const { validated: _shown, ...rest } = state;
    navigate(`${location.pathname}${location.search}`, {
      replace: true,
      state: Object.keys(rest).length ? rest : null,
    });
  }, [location, navigate]);

  const submit = form.onSubmit((values) => {
    const body = {
      user: { username: values.user.username.trim(), password: values.user.password },
      captcha: values.captcha,
      ...(values.keep_connected ? { keep_connected: true } : {}),
    };
    signin.mutate(body, {
      onSuccess: async ({ data }) => {
        clearDomainState();
        queryClient.clear();
        saveSession(sessionFromSignin(data), values.keep_connected);
        // Selecting the first allowed domain is part of signing in, so `/` opens its analytics (READINGS A-2)
        // instead of bouncing to /domains; a list that fails to load is the shell's to report.
        const domains = await queryClient.fetchQuery(domainsQueryOptions(data.company_uuid)).catch(() => []);
        const first = domains.findIndex((d) => isDomainAllowed(d));
        if (first >= 0) setSelectedDomain(toSelectedDomain(domains[first]!, first));
        navigate(resolveOrigin(location.state), { replace: true });
      },
      onError: (error) => {
        notifyError(error);
        captcha.current?.renew();
      },
    });
  });

  return (
    <AuthLayout>
      <form onSubmit={submit} noValidate aria-label="Entrar">
        <Stack gap="md">
          <div>
            <Title order={2} fz={24}>
              Entrar na sua conta
            </Title>
            <Text c="dimmed" size="sm" mt={4}>
              Bem-vindo de volta! Acesse o painel de automação do seu site.
            </Text>
          </div>
          <TextInput
            label="Nome de usuário"
            name="username"
            autoComplete="username"
            leftSection={<IconUser size={16} />}
            {...form.getInputProps('user.username')}
          />
          <PasswordInput
            label="Senha"
            name="password"
            autoComplete="current-password"
            leftSection={<IconLock size={16} />}
            {...form.getInputProps('user.password')}
          />
          <Group justify="space-between">
            <Checkbox
              label="Manter conectado"
              name="keep_connected"
              {...form.getInputProps('keep_connected', { type: 'checkbox' })}
            />
            <Anchor component={Link} to="/recovery" size="sm">
              Esqueceu sua senha?
            </Anchor>
          </Group>
          <CaptchaWidget
            ref={captcha}
            error={form.errors.captcha as string | undefined}
            onChange={(payload) => {
              form.setFieldValue('captcha', payload ?? '');
              if (payload) form.clearFieldError('captcha');
            }}
          />
          <Button type="submit" size="md" fullWidth loading={signin.isPending}>
            Entrar
          </Button>
          <Divider />
          <Text ta="center" size="sm">
            Ainda não tem conta?{' '}
            <Anchor component={Link} to="/signup/company" fw={600}>
              Criar conta
            </Anchor>
          </Text>
          <LegalLinks />
        </Stack>
      </form>
    </AuthLayout>
  );
}
