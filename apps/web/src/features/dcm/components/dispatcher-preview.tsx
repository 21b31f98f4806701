import { Box, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconBell, IconLock } from '@tabler/icons-react';
import { NotificationPreview, WebviewPreview } from '../../blocks/index.ts';
import { DCM_ALERT_MAX_WIDTH, type DcmDispatcherState } from '../dcm-state.ts';

/** The texts the tag's Topbox shows when the item gives none (packages/tracker). */
export const TOPBOX_DEFAULTS = {
  title: 'Receba nossas novidades',
  message: 'Quer ser avisado sobre ofertas e novidades deste site?',
};

/** Live preview of a template (the on-site message sketch), of the push the engine sends, or of an opt-in model. */
export function DispatcherPreview({ value, host }: { value: DcmDispatcherState; host: string }) {
  if (value.dispatcher_type === 'notification')
    return (
      <Box role="group" aria-label="Pré-visualização da notificação push">
        <NotificationPreview title={value.title} message={value.message} siteRoot={host ? `https://${host}` : ''} />
      </Box>
    );
  if (value.dispatcher_type === 'template') {
    const text = [value.title.trim(), value.message.trim()].filter(Boolean).join(' — ');
    if (value.template === 'alert')
      return (
        <WebviewPreview
          type="alert_box"
          alertMaxWidth={DCM_ALERT_MAX_WIDTH}
          height={300}
          props={{
            alertContent: text,
            alertContentColor: '#FFFFFF',
            alertBackgroundColor: '#C04848',
            alertPosition: 'topRight',
          }}
        />
      );
    if (value.template === 'topbar')
      return (
        <WebviewPreview
          type="topbar"
          height={300}
          props={{
            topbarContent: text,
            topbarBtnText: value.redirect_uri ? 'Saiba mais' : '',
            topbarContentColor: '#000000',
            topbarBtnColor: '#FFFFFF',
            topbarBtnBackground: '#000000',
            topbarBackgroundColor: '#FFFFFF',
          }}
        />
      );
    return <WebviewPreview type="image" height={300} props={{ imageUrl: value.image, imageAlt: value.title }} />;
  }
  return (
    <Paper withBorder radius="md" h={300} pos="relative" bg="gray.1" style={{ overflow: 'hidden' }}>
      <Group gap={6} px="sm" py={8} bg="gray.2">
        {['red', 'yellow', 'green'].map((c) => (
          <Box key={c} w={10} h={10} bg={`${c}.4`} style={{ borderRadius: 10 }} />
        ))}
        <Group flex={1} h={18} bg="white" ml="xs" px={8} gap={4} style={{ borderRadius: 9 }}>
          <IconLock size={10} color="#888" />
          <Text size="10px" c="dimmed">
            {host || 'www.seusite.com.br'}
          </Text>
        </Group>
      </Group>
      {value.optin === 'topbox' ? (
        <Paper
          pos="absolute"
          top={46}
          left="50%"
          w="min(340px, calc(100% - 24px))"
          p="md"
          radius="md"
          shadow="md"
          style={{ transform: 'translateX(-50%)' }}
          role="img"
          aria-label="Pré-visualização do topbox"
        >
          <Text fw={700}>{value.title.trim() || TOPBOX_DEFAULTS.title}</Text>
          <Text size="sm" mt={4} mb="sm" c="gray.7">
            {value.message.trim() || TOPBOX_DEFAULTS.message}
          </Text>
          <Group justify="flex-end" gap={6}>
            <Button size="compact-sm" variant="subtle" color="gray" tabIndex={-1}>
              Agora não
            </Button>
            <Button size="compact-sm" tabIndex={-1}>
              Permitir
            </Button>
          </Group>
        </Paper>
      ) : (
        <Paper
          pos="absolute"
          top={40}
          left={16}
          w={280}
          p="sm"
          radius="md"
          shadow="md"
          role="img"
          aria-label="Pré-visualização do pedido do navegador"
        >
          <Stack gap={6}>
            <Text size="sm">
              <b>{host || 'www.seusite.com.br'}</b> quer
            </Text>
            <Group gap={6}>
              <IconBell size={14} />
              <Text size="sm">Mostrar notificações</Text>
            </Group>
            <Group justify="flex-end" gap={6}>
              <Button size="compact-xs" variant="default" tabIndex={-1}>
                Bloquear
              </Button>
              <Button size="compact-xs" tabIndex={-1}>
                Permitir
              </Button>
            </Group>
          </Stack>
        </Paper>
      )}
    </Paper>
  );
}
