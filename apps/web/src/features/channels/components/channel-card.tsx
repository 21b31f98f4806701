import { type ChannelItem, isChannelEditable } from '@impeto/shared';
import { ActionIcon, Badge, Button, Card, Checkbox, Group, Stack, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { IconCode, IconEye, IconPencil, IconPlus } from '@tabler/icons-react';
import { formatDate } from '../../../lib/format.ts';
import type { ChannelDefinition } from './channel-catalog.tsx';
import type { ChannelModalMode } from './channel-modal.tsx';

/**
 * A channel card (doc 1 §2): the checkbox is checked and disabled once the channel is active; an inactive card
 * opens the add modal, an active one offers view, edit (editable types only) and code (push only).
 */
export function ChannelCard({
  definition,
  channel,
  onOpen,
}: {
  definition: ChannelDefinition;
  channel: ChannelItem | undefined;
  onOpen: (mode: ChannelModalMode) => void;
}) {
  const active = Boolean(channel?.active);
  const isPush = definition.type === 'CELL_NOTIFICATION';

  return (
    <Card
      withBorder
      padding="lg"
      onClick={active ? undefined : () => onOpen('add')}
      style={{
        cursor: active ? 'default' : 'pointer',
        borderColor: active ? `var(--mantine-color-${definition.color}-3)` : undefined,
        display: 'flex',
        flexDirection: 'column',
      }}
      aria-label={definition.title}
      component="article"
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <ThemeIcon size={44} radius="md" variant="light" color={definition.color}>
          {definition.icon}
        </ThemeIcon>
        <Checkbox
          aria-label={`${definition.title} integrado`}
          checked={active}
          disabled={active}
          onChange={() => onOpen('add')}
          onClick={(event) => event.stopPropagation()}
          color={definition.color}
          size="md"
          // Disabled but visibly on: the channel's colour instead of Mantine's grey disabled look.
          styles={
            active
              ? {
                  input: {
                    backgroundColor: `var(--mantine-color-${definition.color}-filled)`,
                    borderColor: 'transparent',
                  },
                  icon: { color: 'var(--mantine-color-white)' },
                }
              : undefined
          }
        />
      </Group>
      <Stack gap={6} mt="md" style={{ flex: 1 }}>
        <Group gap="xs">
          <Text fw={700}>{definition.title}</Text>
          {active && !channel?.credentials_refused ? (
            <Badge size="sm" variant="light" color="green" radius="sm">
              Ativo
            </Badge>
          ) : null}
          {channel?.credentials_refused ? (
            <Tooltip label={channel.credentials_refused.reason} multiline w={280} withArrow>
              <Badge size="sm" variant="filled" color="red" radius="sm">
                Credenciais recusadas pelo provedor
              </Badge>
            </Tooltip>
          ) : null}
        </Group>
        <Text size="sm" c="dimmed">
          {definition.description}
        </Text>
        {channel?.credentials_refused ? (
          <Text size="xs" c="red" role="alert">
            Os envios deste canal estão parados desde {formatDate(channel.credentials_refused.at)}. Edite as credenciais
            para voltar a enviar.
          </Text>
        ) : null}
      </Stack>
      <Group justify="space-between" mt="lg" wrap="nowrap" mih={30}>
        {active ? (
          <>
            <Text size="xs" c="dimmed">
              {channel ? `Atualizado em ${formatDate(channel.updated_at)}` : ''}
            </Text>
            <Group gap={6} wrap="nowrap">
              {isPush ? (
                <Tooltip label="Código de opt-in" withArrow>
                  <ActionIcon
                    variant="light"
                    color={definition.color}
                    aria-label={`Código de ${definition.title}`}
                    onClick={() => onOpen('code')}
                  >
                    <IconCode size={16} />
                  </ActionIcon>
                </Tooltip>
              ) : (
                <Tooltip label="Visualizar" withArrow>
                  <ActionIcon
                    variant="light"
                    color="gray"
                    aria-label={`Visualizar ${definition.title}`}
                    onClick={() => onOpen('view')}
                  >
                    <IconEye size={16} />
                  </ActionIcon>
                </Tooltip>
              )}
              {isChannelEditable(definition.type) ? (
                <Tooltip label="Editar" withArrow>
                  <ActionIcon
                    variant="light"
                    color="gray"
                    aria-label={`Editar ${definition.title}`}
                    onClick={() => onOpen('edit')}
                  >
                    <IconPencil size={16} />
                  </ActionIcon>
                </Tooltip>
              ) : null}
            </Group>
          </>
        ) : (
          <Button
            variant="light"
            color={definition.color}
            size="xs"
            leftSection={<IconPlus size={14} />}
            onClick={(event) => {
              event.stopPropagation();
              onOpen('add');
            }}
          >
            Integrar canal
          </Button>
        )}
      </Group>
    </Card>
  );
}
