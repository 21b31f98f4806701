import {
  CONSENT_DENY_CALL,
  CONSENT_GRANT_CALL,
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
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconCheck, IconCopy, IconInfoCircle, IconShieldLock, IconTags } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { CopyCodeBlock, CopyIcon } from '../../../components/ui/copy-code.tsx';
import { useAppConfig } from '../../../lib/app-config.ts';

/** What the modal needs of a domain: the sidebar passes the selected domain, the table a listed one. */
export interface ScriptTarget {
  name: string;
  root: string;
  gero_id: string;
}

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
}: {
  opened: boolean;
  onClose: () => void;
  domain: ScriptTarget | null;
}) {
  const publicUrl = useAppConfig().data?.publicUrl || globalThis.location?.origin || '';
  const snippet = domain ? trackingSnippet({ publicUrl, root: domain.root, geroId: domain.gero_id }) : '';
  const consentSnippet = domain
    ? `${trackingSnippet({ publicUrl, root: domain.root, geroId: domain.gero_id, consentRequired: true })}

<!-- quando o visitante aceitar, em todas as páginas: -->
<script>${CONSENT_GRANT_CALL}</script>`
    : '';
  const worker = domain ? serviceWorkerFile({ publicUrl, geroId: domain.gero_id }) : '';
  const workerUrl = domain ? `${domain.root.replace(/\/+$/, '')}/${SERVICE_WORKER_FILE}` : '';

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
        </Stack>
      ) : (
        <Alert color="yellow" icon={<IconInfoCircle />} title="Nenhum domínio selecionado">
          Selecione ou cadastre um domínio para ver o script de rastreamento.
        </Alert>
      )}
    </Modal>
  );
}
