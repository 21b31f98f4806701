import { type MediaItem, msg } from '@impeto/shared';
import { ActionIcon, AspectRatio, Card, Group, Image, Stack, Text, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconTrash } from '@tabler/icons-react';
import { formatDate } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useRemoveMedia } from '../api/remove-media.ts';
import { formatFileSize } from './format-size.ts';

const CHECKERBOARD =
  'repeating-conic-gradient(var(--mantine-color-gray-1) 0% 25%, var(--mantine-color-white) 0% 50%) 50% / 16px 16px';

export function MediaCard({ item, domainUuid }: { item: MediaItem; domainUuid: string }) {
  const remove = useRemoveMedia(domainUuid);
  const label = item.original_name || item.name;

  const confirmRemove = () =>
    modals.openConfirmModal({
      title: 'Remover mídia',
      children: (
        <Text size="sm">
          Tem certeza que deseja remover <b>{label}</b>? Mensagens que usam esta imagem deixarão de exibi-la.
        </Text>
      ),
      labels: { confirm: 'Remover', cancel: 'Cancelar' },
      confirmProps: { color: 'red', leftSection: <IconTrash size={16} /> },
      onConfirm: () =>
        remove.mutate(item.id, {
          onSuccess: (answer) => notifySuccess(answer.message || msg.media.removed),
          onError: () => notifyError(msg.media.removeFailed),
        }),
    });

  return (
    <Card withBorder padding="sm" style={{ opacity: remove.isPending ? 0.5 : 1 }}>
      <Card.Section>
        <AspectRatio ratio={4 / 3} style={{ background: CHECKERBOARD }}>
          <Image src={item.image} alt={label} fit="contain" loading="lazy" />
        </AspectRatio>
      </Card.Section>
      <Group justify="space-between" wrap="nowrap" mt="sm" gap="xs">
        <Stack gap={0} miw={0}>
          <Text size="sm" fw={600} truncate title={label}>
            {label}
          </Text>
          <Text size="xs" c="dimmed">
            {formatFileSize(item.bytes)} · {formatDate(item.created_at)}
          </Text>
        </Stack>
        <Tooltip label="Remover" withArrow>
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Remover ${label}`}
            loading={remove.isPending}
            onClick={confirmRemove}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Tooltip>
      </Group>
    </Card>
  );
}
