import { trackingSnippet } from '@impeto/shared';
import { Alert, Button, Code, CopyButton, Modal, Stack, Text } from '@mantine/core';
import { IconCheck, IconCopy, IconInfoCircle } from '@tabler/icons-react';
import { useAppConfig } from '../../../lib/app-config.ts';
import type { SelectedDomain } from '../../../lib/domain-store.ts';

/** The script modal (doc 1 §2). The full instructions (tag manager, service worker) come with the domains issue. */
export function ScriptModal({
  opened,
  onClose,
  domain,
}: {
  opened: boolean;
  onClose: () => void;
  domain: SelectedDomain | null;
}) {
  const publicUrl = useAppConfig().data?.publicUrl || globalThis.location?.origin || '';
  const snippet = domain ? trackingSnippet({ publicUrl, root: domain.root, geroId: domain.gero_id }) : '';
  return (
    <Modal opened={opened} onClose={onClose} title="Script de rastreamento" size="lg">
      {domain ? (
        <Stack gap="sm">
          <Text size="sm">
            <Text span fw={600}>
              Raiz do domínio:
            </Text>{' '}
            {domain.root}
          </Text>
          <Text size="sm">
            <Text span fw={600}>
              ID de rastreamento:
            </Text>{' '}
            <Code>{domain.gero_id}</Code>
          </Text>
          <Text size="sm" c="dimmed">
            Insira o script abaixo antes do fechamento da tag &lt;/head&gt; de todas as páginas do seu site.
          </Text>
          <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
            {snippet}
          </Code>
          <CopyButton value={snippet} timeout={2000}>
            {({ copied, copy }) => (
              <Button
                onClick={copy}
                color={copied ? 'teal' : undefined}
                leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              >
                {copied ? 'Script copiado!' : 'Copiar script'}
              </Button>
            )}
          </CopyButton>
        </Stack>
      ) : (
        <Alert color="yellow" icon={<IconInfoCircle />} title="Nenhum domínio selecionado">
          Selecione ou cadastre um domínio para ver o script de rastreamento.
        </Alert>
      )}
    </Modal>
  );
}
