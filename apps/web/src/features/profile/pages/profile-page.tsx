import { changeEmailSchema, changePasswordFields, msg, type Profile, type UserSession } from '@impeto/shared';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Paper,
  PasswordInput,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertTriangle, IconDeviceDesktop, IconDeviceMobile, IconMailForward } from '@tabler/icons-react';
import { type ReactNode, useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { applyFieldErrors } from '../../../lib/form-errors.ts';
import { formatDateTime, formatRelative } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import { passwordWeaknessOf, preloadPasswordStrength } from '../../auth/index.ts';
import {
  useChangePassword,
  useConfirmEmailChange,
  useEndOtherSessions,
  useEndSession,
  useProfile,
  useRequestEmailChange,
  useSessions,
  useUpdateName,
} from '../api/profile.ts';

function Section({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <Card withBorder padding="lg" component="section" aria-label={title}>
      <Title order={3} fz="lg">
        {title}
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        {description}
      </Text>
      {children}
    </Card>
  );
}

function LoadError({ title, error, retry }: { title: string; error: unknown; retry: () => void }) {
  return (
    <Alert color="red" icon={<IconAlertTriangle />} title={title}>
      <Text size="sm" mb="sm">
        {errorMessage(error)}
      </Text>
      <Button size="xs" variant="light" color="red" onClick={retry}>
        Tentar novamente
      </Button>
    </Alert>
  );
}

function NameForm({ profile }: { profile: Profile }) {
  const update = useUpdateName();
  const form = useForm({ initialValues: { name: profile.name } });
  const submit = form.onSubmit(({ name }) => {
    if (!name.trim()) return form.setFieldError('name', msg.profile.nameRequired);
    update.mutate(name, {
      onSuccess: ({ message }) => notifySuccess(message),
      onError: (error) => {
        applyFieldErrors(form, error, { 'profile.name': 'name' });
        notifyError(error);
      },
    });
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Nome">
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label="Nome completo"
          autoComplete="name"
          style={{ flex: 1, minWidth: 220 }}
          {...form.getInputProps('name')}
        />
        <Button type="submit" variant="light" loading={update.isPending} disabled={!form.isDirty()}>
          Salvar nome
        </Button>
      </Group>
    </form>
  );
}

function EmailForm({ profile }: { profile: Profile }) {
  const request = useRequestEmailChange();
  const form = useForm({ initialValues: { email: '' } });
  const submit = form.onSubmit(({ email }) => {
    if (!changeEmailSchema.safeParse({ profile: { email } }).success)
      return form.setFieldError('email', msg.profile.emailInvalid);
    request.mutate(email.trim(), {
      onSuccess: ({ message }) => {
        notifySuccess(message);
        form.reset();
      },
      onError: (error) => {
        applyFieldErrors(form, error, { 'profile.email': 'email' });
        notifyError(error);
      },
    });
  });
  return (
    <Stack gap="sm">
      <Group gap="xs">
        <Text size="sm" fw={500}>
          E-mail atual:
        </Text>
        <Text size="sm">{profile.email}</Text>
      </Group>
      {profile.pending_email ? (
        <Alert color="yellow" icon={<IconMailForward />} p="sm">
          <Text size="sm">
            Aguardando confirmação de <b>{profile.pending_email}</b>: abra o link que enviamos para esse endereço.
          </Text>
        </Alert>
      ) : null}
      <form onSubmit={submit} noValidate aria-label="Trocar e-mail">
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label="Novo e-mail"
            type="email"
            autoComplete="email"
            placeholder="voce@empresa.com.br"
            style={{ flex: 1, minWidth: 220 }}
            {...form.getInputProps('email')}
          />
          <Button type="submit" variant="light" loading={request.isPending}>
            Enviar confirmação
          </Button>
        </Group>
      </form>
    </Stack>
  );
}

function PasswordForm({ profile }: { profile: Profile }) {
  const change = useChangePassword();
  const form = useForm({
    initialValues: { current_password: '', password: '', password_confirmation: '' },
    validate: schemaResolver(changePasswordFields, { sync: true }),
  });
  const checkPassword = async () => {
    const { password } = form.getValues();
    if (!password) return true;
    const weakness = await passwordWeaknessOf(password, profile);
    if (weakness) form.setFieldError('password', weakness);
    return !weakness;
  };
  const submit = form.onSubmit(async (values) => {
    if (!(await checkPassword())) return;
    change.mutate(values, {
      onSuccess: ({ message }) => {
        notifySuccess(message);
        form.reset();
      },
      onError: (error) => {
        applyFieldErrors(form, error, (path) => path.replace(/^profile\./, ''));
        notifyError(error);
      },
    });
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Trocar senha">
      <Stack gap="sm" maw={420}>
        <PasswordInput
          label="Senha atual"
          autoComplete="current-password"
          {...form.getInputProps('current_password')}
        />
        <PasswordInput
          label="Nova senha"
          autoComplete="new-password"
          {...form.getInputProps('password')}
          onFocus={preloadPasswordStrength}
          onBlur={() => void checkPassword()}
        />
        <PasswordInput
          label="Confirmação da nova senha"
          autoComplete="new-password"
          {...form.getInputProps('password_confirmation')}
        />
        <Text size="xs" c="dimmed">
          Ao trocar a senha, todas as outras sessões são encerradas; esta continua aberta.
        </Text>
        <Group>
          <Button type="submit" loading={change.isPending}>
            Trocar senha
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Where a session signed in from: 'São Paulo, SP, BR · IP 177.12.34.56' (older sessions have neither). */
const whereOf = (session: UserSession) =>
  [session.location, session.ip ? `IP ${session.ip}` : ''].filter(Boolean).join(' · ') || 'Local desconhecido';

function DeviceName({ session }: { session: UserSession }) {
  return (
    <Group gap="xs" wrap="wrap">
      {session.mobile ? <IconDeviceMobile size={18} aria-hidden /> : <IconDeviceDesktop size={18} aria-hidden />}
      <Text size="sm" fw={500}>
        {session.device}
      </Text>
      {session.current ? (
        <Badge variant="light" color="green" size="sm" style={{ minWidth: 'max-content', overflow: 'visible' }}>
          Esta sessão
        </Badge>
      ) : null}
    </Group>
  );
}

function EndSessionButton({ session }: { session: UserSession }) {
  const end = useEndSession();
  if (session.current) return null;
  return (
    <Button
      size="xs"
      variant="light"
      color="red"
      loading={end.isPending}
      aria-label={`Encerrar sessão ${session.device} (entrou em ${formatDateTime(session.created_at)})`}
      onClick={() =>
        end.mutate(session.id, { onSuccess: ({ message }) => notifySuccess(message), onError: notifyError })
      }
    >
      Encerrar
    </Button>
  );
}

const lastUse = (session: UserSession) => (session.last_used_at ? formatRelative(session.last_used_at) : '—');

function SessionRow({ session }: { session: UserSession }) {
  return (
    <Table.Tr>
      <Table.Td>
        <DeviceName session={session} />
      </Table.Td>
      <Table.Td>
        <Text size="sm">{formatDateTime(session.created_at)}</Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm" title={session.last_used_at ? formatDateTime(session.last_used_at) : undefined}>
          {lastUse(session)}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{whereOf(session)}</Text>
      </Table.Td>
      <Table.Td ta="right">
        <EndSessionButton session={session} />
      </Table.Td>
    </Table.Tr>
  );
}

/** A phone's version of the row: every detail stacked, nothing hidden behind a sideways scroll. */
function SessionItem({ session }: { session: UserSession }) {
  return (
    <Paper component="li" withBorder radius="md" p="sm" style={{ listStyle: 'none' }}>
      <Stack gap={4}>
        <DeviceName session={session} />
        <Text size="xs" c="dimmed">
          Entrou em {formatDateTime(session.created_at)} · Último uso {lastUse(session)}
        </Text>
        <Text size="xs" c="dimmed">
          {whereOf(session)}
        </Text>
        <Group justify="flex-end">
          <EndSessionButton session={session} />
        </Group>
      </Stack>
    </Paper>
  );
}

function SessionsList() {
  const sessions = useSessions();
  const endOthers = useEndOtherSessions();
  const phone = useMediaQuery('(max-width: 47.99em)') ?? false;
  if (sessions.isPending) return <Skeleton height={120} aria-label="Carregando sessões" />;
  if (sessions.isError)
    return (
      <LoadError title="Não foi possível carregar as sessões" error={sessions.error} retry={() => sessions.refetch()} />
    );
  const others = sessions.data.filter((s) => !s.current).length;
  return (
    <Stack gap="sm">
      {phone ? (
        <Stack component="ul" gap="sm" m={0} p={0} aria-label="Sessões ativas">
          {sessions.data.map((s) => (
            <SessionItem key={s.id} session={s} />
          ))}
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="sm" aria-label="Sessões ativas">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Dispositivo</Table.Th>
                <Table.Th>Entrou em</Table.Th>
                <Table.Th>Último uso</Table.Th>
                <Table.Th>Local</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Ações</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sessions.data.map((s) => (
                <SessionRow key={s.id} session={s} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {others > 0 ? (
        <Group>
          <Button
            variant="subtle"
            color="red"
            size="xs"
            loading={endOthers.isPending}
            onClick={() =>
              endOthers.mutate(undefined, { onSuccess: ({ message }) => notifySuccess(message), onError: notifyError })
            }
          >
            Encerrar todas as outras
          </Button>
        </Group>
      ) : (
        <Text size="sm" c="dimmed">
          Nenhuma outra sessão aberta.
        </Text>
      )}
    </Stack>
  );
}

/** Opening the link mailed to a new address confirms it (once), then drops the token from the URL. */
function useEmailConfirmation() {
  const [params, setParams] = useSearchParams();
  const token = params.get('email_token');
  const confirm = useConfirmEmailChange();
  const sent = useRef(false);
  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    confirm.mutate(token, {
      onSuccess: ({ message }) => notifySuccess(message),
      onError: notifyError,
      onSettled: () =>
        setParams(
          (p) => {
            p.delete('email_token');
            return p;
          },
          { replace: true },
        ),
    });
  }, [token, confirm, setParams]);
}

export default function ProfilePage() {
  usePageTitle('Perfil');
  useEmailConfirmation();
  const profile = useProfile();
  return (
    <>
      <PageHeader
        title="Perfil"
        description="Seus dados de acesso, sua senha e os lugares onde sua conta está aberta."
      />
      {profile.isPending ? (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <Skeleton height={260} aria-label="Carregando perfil" />
          <Skeleton height={260} />
        </SimpleGrid>
      ) : profile.isError ? (
        <LoadError title="Não foi possível carregar seu perfil" error={profile.error} retry={() => profile.refetch()} />
      ) : (
        <Stack gap="lg">
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            <Section title="Dados pessoais" description={`Usuário: ${profile.data.username}`}>
              <Stack gap="lg">
                <NameForm key={profile.data.name} profile={profile.data} />
                <EmailForm profile={profile.data} />
              </Stack>
            </Section>
            <Section title="Senha" description="Informe a senha atual para escolher uma nova.">
              <PasswordForm profile={profile.data} />
            </Section>
          </SimpleGrid>
          <Section
            title="Sessões ativas"
            description="Onde sua conta está aberta agora. Encerre o que você não reconhece."
          >
            <SessionsList />
          </Section>
        </Stack>
      )}
    </>
  );
}
