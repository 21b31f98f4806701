import {
  CONSENT_DENY_CALL,
  CONSENT_GRANT_CALL,
  type OptinModelName,
  SERVICE_WORKER_FILE,
  serviceWorkerFile,
  trackingSnippet,
} from '@impeto/shared';
import {
  Alert,
  Badge,
  Button,
  Code,
  CopyButton,
  Divider,
  Group,
  List,
  Modal,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import {
  IconArrowRight,
  IconBell,
  IconCheck,
  IconCircleCheckFilled,
  IconCopy,
  IconInfoCircle,
  IconShieldLock,
  IconTags,
} from '@tabler/icons-react';
import { type ReactNode, type Ref, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { CopyCodeBlock, CopyIcon } from '../../../components/ui/copy-code.tsx';
import { useAppConfig } from '../../../lib/app-config.ts';
import { withDomain } from '../../../lib/navigation.ts';
import { useDomainOnboarding } from '../api/domain-onboarding.ts';

/** What the modal needs of a domain: the sidebar passes the selected domain, the table a listed one. */
export interface ScriptTarget {
  /** Known for a saved domain: the next steps read its push channel (GET /domain/onboarding/:uuid). */
  uuid?: string;
  name: string;
  root: string;
  gero_id: string;
}

/** The tag's opt-in models (packages/tracker README, 'Web push opt-in'), as the site owner chooses them here. */
const OPTIN_CHOICES: { value: OptinModelName; label: string; description: string }[] = [
  {
    value: 'default',
    label: 'Padrão',
    description: 'O navegador pede a permissão assim que a página abre.',
  },
  {
    value: 'topbox',
    label: 'Topbox',
    description: 'Uma caixa no topo da página convida o visitante; o navegador só pergunta se ele aceitar.',
  },
];

/** The main button's confirmation lasts 2 s (doc 1 §2, §9). */
const SCRIPT_COPY_MS = 2000;

function Step({ number, title, children }: { number: number; title: string; children: ReactNode }) {
  return (
    <Group align="flex-start" wrap="nowrap" gap="md">
      <ThemeIcon radius="xl" size={28} variant="light" aria-hidden>
        <Text fw={700} size="sm">
          {number}
        </Text>
      </ThemeIcon>
      <Stack gap="xs" style={{ flex: 1, minWidth: 0 }}>
        <Title order={5}>{title}</Title>
        {children}
      </Stack>
    </Group>
  );
}

function Fact({ label, value, copyLabel }: { label: string; value: string; copyLabel?: string }) {
  return (
    <Paper withBorder radius="md" px="sm" py={8} bg="gray.0">
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Group gap={4} wrap="nowrap" justify="space-between">
        <Text size="sm" fw={500} truncate title={value}>
          {value}
        </Text>
        {copyLabel ? <CopyIcon value={value} label={copyLabel} /> : null}
      </Group>
    </Paper>
  );
}

/** The script modal (doc 1 §2): tag snippet, tag-manager and service-worker instructions. */
/** The conversion call of tag 1.3.0+ (packages/tracker README). */
const CONVERSION_EXAMPLE = "gero('conversion', { value: 349.90, order_id: 'PED-123' });";

export function ScriptModal({
  opened,
  onClose,
  domain,
  focusNextSteps = false,
}: {
  opened: boolean;
  onClose: () => void;
  domain: ScriptTarget | null;
  /** Opens scrolled to 'Próximos passos' (the analytics page's first-steps card asks for the opt-in model). */
  focusNextSteps?: boolean;
}) {
  const publicUrl = useAppConfig().data?.publicUrl || globalThis.location?.origin || '';
  const onboarding = useDomainOnboarding(domain?.uuid ?? '', opened);
  const pushIntegrated = onboarding.data?.steps.push_integrated === true;
  const [optinModel, setOptinModel] = useState<OptinModelName>('default');
  const nextStepsRef = useRef<HTMLDivElement>(null);
  // Without a push channel nobody would receive what a visitor subscribes to: the opt-in line waits for it.
  const optin = pushIntegrated ? optinModel : undefined;
  const snippet = domain ? trackingSnippet({ publicUrl, root: domain.root, geroId: domain.gero_id, optin }) : '';
  const consentSnippet = domain
    ? `${trackingSnippet({ publicUrl, root: domain.root, geroId: domain.gero_id, consentRequired: true, optin })}

<!-- quando o visitante aceitar, em todas as páginas: -->
<script>${CONSENT_GRANT_CALL}</script>`
    : '';
  const worker = domain ? serviceWorkerFile({ publicUrl, geroId: domain.gero_id }) : '';
  const workerUrl = domain ? `${domain.root.replace(/\/+$/, '')}/${SERVICE_WORKER_FILE}` : '';

  useEffect(() => {
    if (!opened || !focusNextSteps) return;
    // After the modal's opening transition, so the section is laid out.
    const timer = setTimeout(() => nextStepsRef.current?.scrollIntoView({ block: 'start' }), 250);
    return () => clearTimeout(timer);
  }, [opened, focusNextSteps]);

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={
        <Group gap="xs">
          <Text fw={700}>Script de rastreamento</Text>
          {domain ? (
            <Badge variant="light" radius="sm">
              {domain.name}
            </Badge>
          ) : null}
        </Group>
      }
      size={720}
    >
      {domain ? (
        <Stack gap="lg">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <Fact label="Raiz do domínio" value={domain.root} />
            <Fact label="ID de rastreamento (gero_id)" value={domain.gero_id} copyLabel="Copiar ID de rastreamento" />
          </SimpleGrid>

          <Step number={1} title="Instale o script em todas as páginas">
            <Text size="sm" c="dimmed">
              Cole o código abaixo antes do fechamento da tag <Code>&lt;/head&gt;</Code> de todas as páginas do seu
              site.
            </Text>
            <Code block fz="xs" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', lineHeight: 1.6 }}>
              {snippet}
            </Code>
            <CopyButton value={snippet} timeout={SCRIPT_COPY_MS}>
              {({ copied, copy }) => (
                <Button
                  onClick={copy}
                  color={copied ? 'teal' : undefined}
                  leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                  style={{ alignSelf: 'flex-start' }}
                >
                  {copied ? 'Script copiado!' : 'Copiar script'}
                </Button>
              )}
            </CopyButton>
            <Alert variant="light" color="gray" icon={<IconTags size={18} />} title="Usa um gerenciador de tags?">
              <List size="sm" spacing={4}>
                <List.Item>
                  No Google Tag Manager (ou similar), crie uma nova tag do tipo <b>HTML personalizado</b> (Custom HTML).
                </List.Item>
                <List.Item>Cole o script acima no conteúdo da tag.</List.Item>
                <List.Item>
                  Escolha o acionador <b>Todas as páginas</b> (All Pages) e publique o contêiner.
                </List.Item>
              </List>
            </Alert>
          </Step>

          <Divider />

          <Step number={2} title="Crie o service worker das notificações push">
            <Text size="sm" c="dimmed">
              Crie o arquivo <Code>{SERVICE_WORKER_FILE}</Code> na raiz do domínio, público e estático (sem
              redirecionamentos nem login), com exatamente este conteúdo:
            </Text>
            <CopyCodeBlock code={worker} copyLabel="Copiar conteúdo" />
            <Text size="xs" c="dimmed">
              Ele deve abrir em{' '}
              <Text span ff="monospace" size="xs">
                {workerUrl}
              </Text>
              . Trocar a versão do service worker não exige editar este arquivo.
            </Text>
          </Step>

          <Divider />

          <Step number={3} title="Consentimento (LGPD), se o seu site pede">
            <Text size="sm" c="dimmed">
              Para só coletar depois que o visitante aceitar (banner de cookies ou plataforma de consentimento), use{' '}
              <Code>consent: 'required'</Code> no <Code>init</Code>: nada é enviado, nem o ID do visitante é criado, até
              o seu site chamar <Code>{CONSENT_GRANT_CALL}</Code>. O script não guarda a decisão: chame-a em todas as
              páginas enquanto o consentimento valer. <Code>{CONSENT_DENY_CALL}</Code> interrompe o envio e descarta os
              eventos ainda não enviados.
            </Text>
            <CopyCodeBlock code={consentSnippet} copyLabel="Copiar script com consentimento" />
            <Alert variant="light" color="blue" icon={<IconShieldLock size={18} />}>
              <Text size="sm">
                Pedidos de acesso ou exclusão dos titulares são atendidos em Domínios › Opções › Privacidade (LGPD).
              </Text>
            </Alert>
          </Step>

          <Divider />

          <Step number={4} title="Identifique quem se cadastra (SMS, e-mail e OneSignal)">
            <Text size="sm" c="dimmed">
              Quando o visitante informar seus dados (cadastro, login, compra), chame <Code>gero('identify', …)</Code>.
              SMS e e-mail só chegam a quem foi identificado com telefone ou e-mail; o OneSignal encontra a pessoa pelo{' '}
              <Code>external_id</Code>, o mesmo que o site passa para <Code>OneSignal.login(…)</Code>.
            </Text>
            <CopyCodeBlock
              code={
                "gero('identify', {\n  email: 'cliente@exemplo.com.br',\n  phone: '(11) 98765-4321',\n  external_id: 'id-do-cliente-no-seu-site',\n});"
              }
              copyLabel="Copiar exemplo"
            />
            <Text size="xs" c="dimmed">
              Para quem não quer SMS, envie <Code>sms_optout: true</Code> no mesmo comando. Cada e-mail traz um link de
              cancelamento em um clique; quem cancela não recebe mais e-mails deste site.
            </Text>
          </Step>

          <Divider />

          <Step number={5} title="Registre as vendas (conversões)">
            <Text size="sm" c="dimmed">
              Na página de confirmação do pedido, informe o valor em reais e o número do pedido. A venda é creditada à
              última mensagem que a pessoa clicou nos últimos 7 dias (ou viu no último dia) e aparece no desempenho dos
              momentums, no Analytics; o mesmo pedido enviado de novo conta uma vez só.
            </Text>
            <CopyCodeBlock code={CONVERSION_EXAMPLE} copyLabel="Copiar exemplo de conversão" />
          </Step>

          <Divider />

          <Step number={6} title="Verifique a instalação">
            <Text size="sm" c="dimmed">
              Depois de publicar, clique em <b>Verificar</b> na página de domínios. O domínio fica ativo quando o script
              e o service worker são encontrados.
            </Text>
          </Step>

          <NextSteps
            innerRef={nextStepsRef}
            domainUuid={domain.uuid}
            pushIntegrated={pushIntegrated}
            optinReceived={onboarding.data?.steps.first_optin === true}
            momentumActive={onboarding.data?.steps.momentum_active === true}
            loading={Boolean(domain.uuid) && onboarding.isPending}
            optinModel={optinModel}
            onOptinModel={setOptinModel}
            snippet={snippet}
            onNavigate={onClose}
          />
        </Stack>
      ) : (
        <Alert color="yellow" icon={<IconInfoCircle />} title="Nenhum domínio selecionado">
          Selecione ou cadastre um domínio para ver o script de rastreamento.
        </Alert>
      )}
    </Modal>
  );
}

function NextStep({ done, title, children }: { done: boolean; title: string; children: ReactNode }) {
  return (
    <Group align="flex-start" wrap="nowrap" gap="sm" role="listitem" aria-label={title}>
      <ThemeIcon radius="xl" size={24} variant={done ? 'filled' : 'light'} color={done ? 'teal' : 'gray'} aria-hidden>
        {done ? <IconCircleCheckFilled size={16} /> : <IconArrowRight size={14} />}
      </ThemeIcon>
      <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
        <Group gap="xs">
          <Text fw={600} size="sm">
            {title}
          </Text>
          {done ? (
            <Badge size="sm" variant="light" color="teal" radius="sm">
              Concluído
            </Badge>
          ) : null}
        </Group>
        {children}
      </Stack>
    </Group>
  );
}

/** The section's first lines say what is still missing, read from the domain's steps (not a fixed text). */
function nextStepsIntro(state: { pushIntegrated: boolean; optinReceived: boolean; momentumActive: boolean }) {
  const base = 'Com o script e o service worker instalados, o Ímpeto já conta as visitas.';
  if (!state.pushIntegrated)
    return `${base} Para enviar notificações push, os visitantes precisam aceitá-las: falta integrar o canal push e escolher como o pedido aparece.`;
  if (!state.optinReceived)
    return `${base} O canal push já está integrado: falta escolher como o pedido aparece e aguardar o primeiro visitante aceitar.`;
  if (!state.momentumActive)
    return `${base} O canal push já está integrado e visitantes já aceitaram as notificações: falta criar o primeiro momentum.`;
  return `${base} O canal push já está integrado, visitantes já aceitaram as notificações e há um momentum ativo.`;
}

/**
 * What comes after the installation (issue #14): a site with only the script collects visits but never asks for
 * push permission. Once the push channel exists, the opt-in model chosen here goes into the snippet above.
 */
function NextSteps({
  innerRef,
  domainUuid,
  pushIntegrated,
  optinReceived,
  momentumActive,
  loading,
  optinModel,
  onOptinModel,
  snippet,
  onNavigate,
}: {
  innerRef: Ref<HTMLDivElement>;
  domainUuid: string | undefined;
  pushIntegrated: boolean;
  optinReceived: boolean;
  momentumActive: boolean;
  loading: boolean;
  optinModel: OptinModelName;
  onOptinModel: (model: OptinModelName) => void;
  snippet: string;
  onNavigate: () => void;
}) {
  const chosen = OPTIN_CHOICES.find((c) => c.value === optinModel) ?? OPTIN_CHOICES[0]!;
  const link = (path: string) => (domainUuid ? withDomain(path, domainUuid) : withDomain(path));
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      bg="blue.0"
      ref={innerRef}
      component="section"
      aria-labelledby="proximos-passos"
      // Scrolled to from the analytics card: clear of the modal's sticky header.
      style={{ scrollMarginTop: 72 }}
    >
      <Stack gap="md">
        <Group gap="xs">
          <IconBell size={20} aria-hidden />
          <Title order={4} id="proximos-passos">
            Próximos passos
          </Title>
        </Group>
        <Text size="sm" c="dimmed">
          {nextStepsIntro({ pushIntegrated, optinReceived, momentumActive })}
        </Text>
        <Stack gap="md" role="list">
          <NextStep done={pushIntegrated} title="Integre o canal push">
            {pushIntegrated ? (
              <Text size="sm" c="dimmed">
                O canal de notificações push já está integrado a este domínio.
              </Text>
            ) : (
              <>
                <Text size="sm" c="dimmed">
                  Em Canais, marque <b>Notificação push</b> e confirme. Ele não pede credenciais: usa o script e o{' '}
                  <Code>{SERVICE_WORKER_FILE}</Code> acima.
                </Text>
                <Button
                  component={Link}
                  to={link('/channels')}
                  onClick={onNavigate}
                  size="xs"
                  variant="light"
                  rightSection={<IconArrowRight size={14} />}
                  style={{ alignSelf: 'flex-start' }}
                  loading={loading}
                >
                  Integrar canal push
                </Button>
              </>
            )}
          </NextStep>

          <NextStep done={optinReceived} title="Escolha o modelo de opt-in">
            <SegmentedControl
              aria-label="Modelo de opt-in"
              value={optinModel}
              onChange={(value) => onOptinModel(value as OptinModelName)}
              data={OPTIN_CHOICES.map((c) => ({ value: c.value, label: c.label }))}
              disabled={!pushIntegrated}
              style={{ alignSelf: 'flex-start' }}
            />
            <Text size="xs" c="dimmed">
              {chosen.description}
            </Text>
            {pushIntegrated ? (
              <>
                <Text size="sm" c="dimmed">
                  O script do passo 1 agora termina com <Code>{`gero('optin', '${optinModel}');`}</Code>. Copie-o de
                  novo e substitua o que está no site. O passo conclui quando o primeiro visitante aceitar as
                  notificações.
                </Text>
                <CopyCodeBlock code={snippet} copyLabel="Copiar script com opt-in" />
              </>
            ) : (
              <Text size="sm" c="dimmed">
                Disponível depois de integrar o canal push: sem ele, ninguém receberia as notificações de quem aceitar.
              </Text>
            )}
          </NextStep>

          <NextStep done={momentumActive} title="Crie o primeiro momentum">
            <Text size="sm" c="dimmed">
              Um momentum envia a notificação sozinho quando o visitante faz o que você escolher (por exemplo, visita o
              carrinho). O domínio precisa estar validado.
            </Text>
            <Button
              component={Link}
              to={link('/v2/momentum/create')}
              onClick={onNavigate}
              size="xs"
              variant="light"
              rightSection={<IconArrowRight size={14} />}
              style={{ alignSelf: 'flex-start' }}
            >
              Criar momentum
            </Button>
          </NextStep>
        </Stack>
      </Stack>
    </Paper>
  );
}
