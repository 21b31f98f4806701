import { Box, Group, Paper, Stack, Text } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import type { CSSProperties } from 'react';

const ALERT_PLACEMENT: Record<string, CSSProperties> = {
  topLeft: { top: 12, left: 12 },
  topCenter: { top: 12, left: '50%', transform: 'translateX(-50%)' },
  topRight: { top: 12, right: 12 },
  centerLeft: { top: '50%', left: 12, transform: 'translateY(-50%)' },
  centerCenter: { top: '50%', left: '50%', transform: 'translate(-50%, -50%)' },
  centerRight: { top: '50%', right: 12, transform: 'translateY(-50%)' },
  bottomLeft: { bottom: 12, left: 12 },
  bottomCenter: { bottom: 12, left: '50%', transform: 'translateX(-50%)' },
  bottomRight: { bottom: 12, right: 12 },
};

/** The on-site message kinds (packages/shared ONSITE_TYPES) and the GCD image template. */
export type WebviewPreviewType = 'notification_box' | 'topbar' | 'alert_box' | 'image';

export interface WebviewPreviewProps {
  type: WebviewPreviewType;
  /** The on-site message's props (spec doc 2 §3.6); the image template reads imageUrl, imageAlt. */
  props: Record<string, string>;
  /** Widest the alert may be (the GCD alert template: 320 px). */
  alertMaxWidth?: number;
  height?: number;
}

/** A sketch of a page with the message on it: the custom on-site message modal's and the GCD manager's preview. */
export function WebviewPreview({ type, props, alertMaxWidth = 260, height = 380 }: WebviewPreviewProps) {
  const p = (key: string) => props[key] ?? '';
  return (
    <Paper
      withBorder
      radius="md"
      h={height}
      pos="relative"
      style={{ overflow: 'hidden' }}
      bg="gray.1"
      role="img"
      aria-label="Pré-visualização da mensagem"
    >
      <Group gap={6} px="sm" py={8} bg="gray.2">
        {['red', 'yellow', 'green'].map((c) => (
          <Box key={c} w={10} h={10} bg={`${c}.4`} style={{ borderRadius: 10 }} />
        ))}
        <Box flex={1} h={14} bg="white" style={{ borderRadius: 7 }} ml="xs" />
      </Group>
      <Stack gap={8} p="md" opacity={0.5}>
        <Box h={12} w="60%" bg="gray.3" style={{ borderRadius: 6 }} />
        <Box h={80} bg="gray.3" style={{ borderRadius: 8 }} />
        <Box h={10} w="80%" bg="gray.3" style={{ borderRadius: 6 }} />
        <Box h={10} w="70%" bg="gray.3" style={{ borderRadius: 6 }} />
      </Stack>
      {type === 'topbar' ? (
        <Group
          pos="absolute"
          top={30}
          left={0}
          right={0}
          px="md"
          py={10}
          justify="center"
          gap="md"
          style={{ background: p('topbarBackgroundColor'), boxShadow: '0 2px 6px rgba(0,0,0,.12)' }}
        >
          <Text size="sm" style={{ color: p('topbarContentColor') }}>
            {p('topbarContent') || 'Conteúdo da barra'}
          </Text>
          <Box
            px={12}
            py={4}
            style={{ background: p('topbarBtnBackground'), color: p('topbarBtnColor'), borderRadius: 6, fontSize: 13 }}
          >
            {p('topbarBtnText') || 'Botão'}
          </Box>
        </Group>
      ) : null}
      {type === 'alert_box' ? (
        <Box
          pos="absolute"
          maw={alertMaxWidth}
          px="md"
          py="sm"
          style={{
            ...(ALERT_PLACEMENT[p('alertPosition')] ?? ALERT_PLACEMENT.topRight),
            background: p('alertBackgroundColor'),
            color: p('alertContentColor'),
            borderRadius: 8,
            boxShadow: '0 4px 12px rgba(0,0,0,.18)',
            fontSize: 13,
          }}
        >
          {p('alertContent') || 'Conteúdo do alerta'}
        </Box>
      ) : null}
      {type === 'notification_box' ? (
        <Box
          pos="absolute"
          right={14}
          bottom={14}
          w={250}
          p="sm"
          style={{ background: p('boxColor'), borderRadius: 10, boxShadow: '0 6px 18px rgba(0,0,0,.18)' }}
        >
          <Group justify="flex-end" mb={4}>
            <IconX size={12} color="#888" />
          </Group>
          {p('notificationImage') ? (
            <Box
              component="img"
              src={p('notificationImage')}
              alt=""
              w="100%"
              h={90}
              mb={6}
              style={{ objectFit: 'cover', borderRadius: 6 }}
            />
          ) : null}
          <Text fw={700} size="sm" style={{ color: p('titleColor') }}>
            {p('notificationTitle') || 'Título da mensagem'}
          </Text>
          <Text size="xs" mb={8} style={{ color: p('descriptionColor') }}>
            {p('notificationContent') || 'Conteúdo da mensagem'}
          </Text>
          <Box
            ta="center"
            py={6}
            style={{ background: p('btnBackground'), color: p('btnColor'), borderRadius: 6, fontSize: 13 }}
          >
            {p('notificationButtonText') || 'Botão'}
          </Box>
        </Box>
      ) : null}
      {type === 'image' ? (
        <Box pos="absolute" top={44} left={16} right={16}>
          {p('imageUrl') ? (
            <Box
              component="img"
              src={p('imageUrl')}
              alt={p('imageAlt')}
              w="100%"
              h={150}
              style={{ objectFit: 'cover', borderRadius: 8, boxShadow: '0 4px 14px rgba(0,0,0,.16)', display: 'block' }}
            />
          ) : (
            <Box
              h={150}
              bg="gray.3"
              style={{
                borderRadius: 8,
                display: 'grid',
                placeItems: 'center',
                border: '2px dashed var(--mantine-color-gray-5)',
              }}
            >
              <Text size="sm" c="dimmed">
                Informe a URL da imagem
              </Text>
            </Box>
          )}
        </Box>
      ) : null}
    </Paper>
  );
}
