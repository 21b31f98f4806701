import type { DomainOnboarding, OnboardingStep } from '@impeto/shared';
import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Group,
  Progress,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconArrowRight, IconCheck, IconRocket } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { lazyModal } from '../../../components/ui/lazy-modal.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { useSelectedDomain } from '../../../lib/domain-store.ts';
import { withDomain } from '../../../lib/navigation.ts';
import { useDomainOnboarding } from '../../domains/index.ts';

// The script modal's code comes when a step opens it, not with the analytics page.
const ScriptModal = lazyModal(() => import('../../domains/components/script-modal.tsx').then((m) => m.ScriptModal));

type StepAction = { kind: 'link'; to: string } | { kind: 'script'; focusNextSteps: boolean };

interface StepCopy {
  title: string;
  done: string;
  open: string;
  action: string;
  target: (domainUuid: string) => StepAction;
}

/** The six first steps (issues #14, #29), each with where it is done; the last is a message actually sent. */
const STEPS: Record<OnboardingStep, StepCopy> = {
  script_installed: {
    title: 'Script instalado',
    done: 'O script foi encontrado no site ou já enviou visitas ao Ímpeto.',
    open: 'Cole o script e crie o cn_sw.min.js no site; o passo conclui com a primeira visita recebida.',
    action: 'Ver script de instalação',
    target: () => ({ kind: 'script', focusNextSteps: false }),
  },
  domain_validated: {
    title: 'Domínio validado',
    done: 'Script e service worker encontrados no site.',
    open: 'Em Domínios, clique em Verificar para confirmar a instalação.',
    action: 'Validar domínio',
    target: (uuid) => ({ kind: 'link', to: withDomain('/domains', uuid) }),
  },
  push_integrated: {
    title: 'Canal push integrado',
    done: 'As notificações push deste domínio estão ativas.',
    open: 'Em Canais, integre a Notificação push (não pede credenciais).',
    action: 'Integrar canal push',
    target: (uuid) => ({ kind: 'link', to: withDomain('/channels', uuid) }),
  },
  first_optin: {
    title: 'Primeiro opt-in recebido',
    done: 'Um visitante já aceitou receber notificações.',
    open: 'Escolha o modelo de opt-in, atualize o script no site e aguarde o primeiro visitante aceitar.',
    action: 'Escolher modelo de opt-in',
    target: () => ({ kind: 'script', focusNextSteps: true }),
  },
  momentum_active: {
    title: 'Primeiro momentum ativo',
    done: 'Um momentum está ativo: ele envia quando um visitante fizer o que o gatilho pede.',
    open: 'Crie um momentum com o canal push e inicie-o.',
    action: 'Criar momentum',
    target: (uuid) => ({ kind: 'link', to: withDomain('/v2/momentum/create', uuid) }),
  },
  first_delivery: {
    title: 'Primeira mensagem entregue',
    done: 'Uma mensagem já chegou a um visitante.',
    open: 'Conclui quando a primeira mensagem de um momentum ou campanha for enviada a um visitante. Na lista, o ícone de entregas mostra cada envio e o motivo de uma falha.',
    action: 'Ver momentums',
    target: (uuid) => ({ kind: 'link', to: withDomain('/v2/momentums', uuid) }),
  },
};

const ORDER = Object.keys(STEPS) as OnboardingStep[];

function OnboardingSkeleton() {
  return (
    <Stack gap="sm" aria-hidden>
      <Skeleton height={8} radius="xl" />
      {ORDER.map((step) => (
        <Group key={step} gap="sm" wrap="nowrap">
          <Skeleton height={28} circle />
          <Stack gap={6} style={{ flex: 1 }}>
            <Skeleton height={12} width="35%" />
            <Skeleton height={10} width="70%" />
          </Stack>
        </Group>
      ))}
    </Stack>
  );
}

/**
 * 'Primeiros passos' at the top of the analytics page while any step of the domain is open: each step read from
 * the server's real data, each open one with a way to where it is done. It has its own request, skeleton and
 * retry, so it never blanks the widgets below; it disappears once every step is done.
 */
export function OnboardingCard({ domainUuid }: { domainUuid: string }) {
  const titleId = useId();
  const query = useDomainOnboarding(domainUuid);
  const selected = useSelectedDomain();
  const [script, setScript] = useState<{ focusNextSteps: boolean } | null>(null);

  if (query.data?.complete) return null;
  const data: DomainOnboarding | undefined = query.data;
  const done = data?.done_count ?? 0;
  const total = data?.total ?? ORDER.length;

  return (
    <Card
      component="section"
      withBorder
      padding="lg"
      aria-labelledby={titleId}
      aria-busy={query.isPending && !query.isError ? 'true' : undefined}
      style={{ borderColor: 'var(--mantine-color-brand-3)' }}
    >
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs" mb="md">
        <Group gap="xs" wrap="nowrap" align="flex-start" style={{ minWidth: 0 }}>
          <Box c="brand.6" mt={2} style={{ display: 'flex' }}>
            <IconRocket size={20} />
          </Box>
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Title order={2} size="h4" id={titleId}>
              Primeiros passos
            </Title>
            <Text size="sm" c="dimmed">
              Do script instalado à primeira notificação enviada por um momentum.
            </Text>
          </Stack>
        </Group>
        {data ? (
          <Badge variant="light" size="lg" radius="sm">
            {done} de {total} concluídos
          </Badge>
        ) : null}
      </Group>

      {query.isError ? (
        <Alert color="red" variant="light" icon={<IconAlertTriangle />} title="Não foi possível carregar">
          <Text size="sm" mb="sm">
            {errorMessage(query.error)}
          </Text>
          <Button size="compact-sm" variant="light" color="red" onClick={() => query.refetch()}>
            Tentar novamente
          </Button>
        </Alert>
      ) : !data ? (
        <OnboardingSkeleton />
      ) : (
        <Stack gap="md">
          <Progress
            value={(done / total) * 100}
            size="sm"
            radius="xl"
            aria-label={`Primeiros passos: ${done} de ${total} concluídos`}
          />
          <Stack gap="sm" role="list">
            {ORDER.map((step) => {
              const copy = STEPS[step];
              const isDone = data.steps[step];
              const action = copy.target(domainUuid);
              return (
                <Group
                  key={step}
                  role="listitem"
                  aria-label={copy.title}
                  data-done={isDone ? 'true' : 'false'}
                  wrap="wrap"
                  gap="sm"
                  justify="space-between"
                  align="center"
                >
                  <Group gap="sm" wrap="nowrap" align="flex-start" style={{ flex: '1 1 280px', minWidth: 0 }}>
                    <ThemeIcon
                      radius="xl"
                      size={28}
                      variant={isDone ? 'filled' : 'light'}
                      color={isDone ? 'teal' : 'gray'}
                      aria-hidden
                    >
                      {isDone ? <IconCheck size={16} /> : <Text size="xs">{ORDER.indexOf(step) + 1}</Text>}
                    </ThemeIcon>
                    <Stack gap={2} style={{ minWidth: 0 }}>
                      <Group gap="xs">
                        <Text fw={600} size="sm">
                          {copy.title}
                        </Text>
                        <Badge size="xs" radius="sm" variant="light" color={isDone ? 'teal' : 'gray'}>
                          {isDone ? 'Concluído' : 'Pendente'}
                        </Badge>
                      </Group>
                      <Text size="xs" c="dimmed">
                        {isDone ? copy.done : copy.open}
                      </Text>
                    </Stack>
                  </Group>
                  {isDone ? null : action.kind === 'link' ? (
                    <Button
                      component={Link}
                      to={action.to}
                      size="xs"
                      variant="light"
                      rightSection={<IconArrowRight size={14} />}
                    >
                      {copy.action}
                    </Button>
                  ) : (
                    <Button
                      size="xs"
                      variant="light"
                      rightSection={<IconArrowRight size={14} />}
                      onClick={() => setScript({ focusNextSteps: action.focusNextSteps })}
                    >
                      {copy.action}
                    </Button>
                  )}
                </Group>
              );
            })}
          </Stack>
        </Stack>
      )}
      <ScriptModal
        opened={script !== null}
        onClose={() => setScript(null)}
        focusNextSteps={script?.focusNextSteps ?? false}
        domain={selected?.uuid === domainUuid ? selected : null}
      />
    </Card>
  );
}
