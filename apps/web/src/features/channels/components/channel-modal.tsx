import {
  type ChannelItem,
  type ChannelType,
  channelEditSchemas,
  channelFormSchemas,
  isChannelEditable,
  SECRET_MASK,
} from '@impeto/shared';
import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconCircleCheck, IconInfoCircle, IconLock, IconPencil, IconPlugConnected } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { CopyCodeBlock } from '../../../components/ui/copy-code.tsx';
import { applyFieldErrors } from '../../../lib/form-errors.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useCreateChannel } from '../api/create-channel.ts';
import { useUpdateChannel } from '../api/update-channel.ts';
import { type ChannelDefinition, OPTIN_MODELS, optinSnippet } from './channel-catalog.tsx';

export type ChannelModalMode = 'add' | 'view' | 'edit' | 'code';

interface Props {
  opened: boolean;
  mode: ChannelModalMode;
  definition: ChannelDefinition;
  channel: ChannelItem | undefined;
  domainUuid: string;
  onClose: () => void;
  onModeChange: (mode: ChannelModalMode) => void;
}

type Values = Record<string, string>;

const blankValues = (definition: ChannelDefinition): Values =>
  Object.fromEntries(definition.fields.map((f) => [f.name, '']));

const TITLE_PREFIX: Record<ChannelModalMode, string> = {
  add: 'Integrar',
  view: 'Canal',
  edit: 'Editar',
  code: 'Código de opt-in',
};

/** Schema per mode: creation requires every field; an edit may leave credentials empty to keep them. */
function schemaFor(type: ChannelType, mode: ChannelModalMode) {
  if (mode === 'edit' && type in channelEditSchemas) return channelEditSchemas[type as keyof typeof channelEditSchemas];
  return channelFormSchemas[type];
}

/** The channel modal (doc 1 §2): add, view (read-only, credentials hidden), edit, and code for push. */
export function ChannelModal({ opened, mode, definition, channel, domainUuid, onClose, onModeChange }: Props) {
  const create = useCreateChannel(domainUuid);
  const update = useUpdateChannel(domainUuid);
  const saving = create.isPending || update.isPending;
  const hasFields = definition.fields.length > 0;
  // The form is created once; validation reads the current mode through a ref.
  const modeRef = useRef(mode);
  modeRef.current = mode;
  const form = useForm<Values>({
    initialValues: blankValues(definition),
    validate: (values) => schemaResolver(schemaFor(definition.type, modeRef.current), { sync: true })(values),
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: re-seeded when the modal opens, changes mode or type.
  useEffect(() => {
    if (!opened) return;
    const values = blankValues(definition);
    if (mode === 'edit' && channel) {
      for (const field of definition.fields)
        if (!field.secret) values[field.name] = channel.properties[field.name] ?? '';
    }
    form.setValues(values);
    form.resetDirty(values);
    form.clearErrors();
  }, [opened, mode, definition.type]);

  const fieldErrorPath = (key: string) => {
    const name = key.replace(/^channel\.properties\./, '');
    return definition.fields.some((f) => f.name === name) ? name : undefined;
  };

  const onError = (error: unknown) => {
    applyFieldErrors(form, error, fieldErrorPath);
    notifyError(error);
  };

  const integrate = () =>
    create.mutate(
      { channel_type: definition.type, properties: {} },
      {
        onSuccess: (answer) => {
          notifySuccess(answer.message);
          onModeChange(definition.type === 'CELL_NOTIFICATION' ? 'code' : 'view');
        },
        onError,
      },
    );

  const submit = form.onSubmit((values) => {
    // A submit with every field empty is ignored (READINGS A-21); validation has already shown the messages.
    if (Object.values(values).every((v) => v.trim() === '')) return;
    if (mode === 'add') {
      create.mutate(
        { channel_type: definition.type, properties: values },
        {
          onSuccess: (answer) => {
            notifySuccess(answer.message);
            onModeChange('view');
          },
          onError,
        },
      );
    } else if (mode === 'edit' && channel) {
      update.mutate(
        { uuid: channel.uuid, channel_type: definition.type, properties: values },
        {
          onSuccess: (answer) => {
            notifySuccess(answer.message);
            onModeChange('view');
          },
          onError,
        },
      );
    }
  });

  const header = (
    <Group gap="sm" wrap="nowrap">
      <ThemeIcon variant="light" color={definition.color} size={34} radius="md">
        {definition.icon}
      </ThemeIcon>
      <div>
        <Text size="xs" c="dimmed" fw={600} tt="uppercase">
          {TITLE_PREFIX[mode]}
        </Text>
        <Title order={4} lh={1.2}>
          {definition.title}
        </Title>
      </div>
    </Group>
  );

  const renderBody = () => {
    if (mode === 'code') {
      return (
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            Cole um dos trechos abaixo depois do script de rastreamento, nas páginas em que o pedido de permissão deve
            aparecer. Use apenas um modelo por página.
          </Text>
          {OPTIN_MODELS.map((item) => (
            <Stack key={item.model} gap={6}>
              <Group gap="xs">
                <Text fw={600} size="sm">
                  {item.title}
                </Text>
                <Badge variant="light" radius="sm" size="sm">
                  {item.model}
                </Badge>
              </Group>
              <Text size="xs" c="dimmed">
                {item.description}
              </Text>
              <CopyCodeBlock code={optinSnippet(item.model)} copyLabel="Copiar código" />
            </Stack>
          ))}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Fechar
            </Button>
          </Group>
        </Stack>
      );
    }

    if (!hasFields) {
      if (mode === 'add') {
        const isPush = definition.type === 'CELL_NOTIFICATION';
        return (
          <Stack gap="md">
            <Text size="sm">{definition.description}</Text>
            <Alert variant="light" icon={<IconInfoCircle />} radius="md">
              {isPush
                ? 'Este canal não precisa de credenciais: ele usa o script de rastreamento e o service worker (cn_sw.min.js) já instalados no domínio. Depois de integrar, copie o código de opt-in para escolher como o pedido de permissão aparece.'
                : 'Este canal não precisa de credenciais: as mensagens aparecem no próprio site pelo script de rastreamento já instalado no domínio.'}
            </Alert>
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose} disabled={saving}>
                Cancelar
              </Button>
              <Button leftSection={<IconPlugConnected size={16} />} loading={saving} onClick={integrate}>
                Integrar
              </Button>
            </Group>
          </Stack>
        );
      }
      return (
        <Stack gap="md">
          <Alert variant="light" color="green" icon={<IconCircleCheck />} radius="md" title="Canal integrado">
            {definition.description}
          </Alert>
          {channel ? (
            <Text size="xs" c="dimmed">
              Atualizado em {formatDateTime(channel.updated_at)}
            </Text>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Fechar
            </Button>
          </Group>
        </Stack>
      );
    }

    const readOnly = mode === 'view';
    return (
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {readOnly ? (
            <Alert variant="light" color="gray" icon={<IconLock />} radius="md">
              As credenciais ficam guardadas com criptografia e nunca são exibidas.
            </Alert>
          ) : mode === 'edit' ? (
            <Text size="sm" c="dimmed">
              Deixe as credenciais em branco para manter as que estão salvas.
            </Text>
          ) : (
            <Text size="sm" c="dimmed">
              {definition.description}
            </Text>
          )}
          {definition.fields.map((field) => {
            if (readOnly) {
              return (
                <TextInput
                  key={field.name}
                  label={field.label}
                  name={field.name}
                  readOnly
                  variant="filled"
                  value={field.secret ? SECRET_MASK : (channel?.properties[field.name] ?? '')}
                />
              );
            }
            const common = {
              label: field.label,
              name: field.name,
              withAsterisk: !(mode === 'edit' && field.secret),
              placeholder: mode === 'edit' && field.secret ? SECRET_MASK : field.placeholder,
              autoComplete: 'off',
              ...form.getInputProps(field.name),
            };
            return field.password ? (
              <PasswordInput key={field.name} {...common} autoComplete="new-password" />
            ) : (
              <TextInput key={field.name} {...common} />
            );
          })}
          {readOnly && channel ? (
            <Text size="xs" c="dimmed">
              Atualizado em {formatDateTime(channel.updated_at)}
            </Text>
          ) : null}
          <Group justify="flex-end" mt="xs">
            {readOnly ? (
              <>
                <Button key="close" variant="default" onClick={onClose}>
                  Fechar
                </Button>
                {/* Distinct keys: React must not turn this very button into the submit one mid-click. */}
                {isChannelEditable(definition.type) ? (
                  <Button key="edit" leftSection={<IconPencil size={16} />} onClick={() => onModeChange('edit')}>
                    Editar
                  </Button>
                ) : null}
              </>
            ) : (
              <>
                <Button
                  key="cancel"
                  variant="default"
                  onClick={mode === 'edit' ? () => onModeChange('view') : onClose}
                  disabled={saving}
                >
                  Cancelar
                </Button>
                <Button key="submit" type="submit" loading={saving}>
                  {mode === 'add' ? 'Integrar' : 'Salvar'}
                </Button>
              </>
            )}
          </Group>
        </Stack>
      </form>
    );
  };

  return (
    <Modal opened={opened} onClose={onClose} title={header} size="lg">
      {renderBody()}
    </Modal>
  );
}
