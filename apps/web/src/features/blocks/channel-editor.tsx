import {
  ActionIcon,
  Alert,
  Anchor,
  Box,
  Button,
  Grid,
  Group,
  Paper,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconBellRinging, IconLink, IconPhoto, IconPlugConnected, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { withDomain } from '../../lib/navigation.ts';
import { pushChannelsOf, useDomainChannels } from './api/list-push-channels.ts';
import type { ChannelState, FieldErrors } from './block-state.ts';
import { ImagePickerModal } from './image-picker-modal.tsx';
import { IntervalInput } from './interval-input.tsx';
import { NotificationPreview } from './notification-preview.tsx';
import { showTestNotification } from './test-notification.ts';

export const TITLE_MAX = 49;

/** Up to two action buttons under the notification, each with its own link (`notification_buttons`). */
export function ButtonsEditor({
  buttons,
  onChange,
  errors,
  disabled,
}: {
  buttons: ChannelState['buttons'];
  onChange: (buttons: ChannelState['buttons']) => void;
  errors: FieldErrors;
  disabled?: boolean;
}) {
  const edit = (i: number, patch: Partial<ChannelState['buttons'][number]>) =>
    onChange(buttons.map((b, j) => (j === i ? { ...b, ...patch } : b)));
  return (
    <Paper withBorder p="sm" radius="md" component="fieldset" aria-label="Botões da notificação" style={{ margin: 0 }}>
      <Group justify="space-between" mb={buttons.length ? 'xs' : 0}>
        <div>
          <Text size="sm" fw={500}>
            Botões (opcional)
          </Text>
          <Text size="xs" c="dimmed">
            Até 2 botões sob a notificação, cada um com seu link.
          </Text>
        </div>
        <Button
          size="xs"
          variant="light"
          leftSection={<IconPlus size={14} />}
          disabled={disabled || buttons.length >= 2}
          onClick={() => onChange([...buttons, { title: '', url: '' }])}
        >
          Adicionar botão
        </Button>
      </Group>
      <Stack gap="xs">
        {buttons.map((b, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the two slots are positional (first and second button).
          <Group key={i} align="flex-start" gap="xs" wrap="nowrap">
            <TextInput
              label={`Texto do botão ${i + 1}`}
              maxLength={30}
              value={b.title}
              onChange={(e) => edit(i, { title: e.currentTarget.value })}
              error={errors[`notification_buttons.${i}.title`]}
              disabled={disabled}
              style={{ flex: 1 }}
            />
            <TextInput
              label={`Link do botão ${i + 1}`}
              placeholder="https://"
              value={b.url}
              onChange={(e) => edit(i, { url: e.currentTarget.value })}
              error={errors[`notification_buttons.${i}.url`]}
              disabled={disabled}
              style={{ flex: 2 }}
            />
            <ActionIcon
              mt={26}
              variant="subtle"
              color="red"
              aria-label={`Remover botão ${i + 1}`}
              disabled={disabled}
              onClick={() => onChange(buttons.filter((_, j) => j !== i))}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}
export const MESSAGE_MAX = 126;
export const NO_CHANNELS =
  'Seu domínio não possui canais integrados. Integre um canal antes de concluir a criação do seu momentum.';

const counter = (length: number, max: number) => (
  <Text size="xs" c={length > max ? 'red' : 'dimmed'} component="span">
    {length}/{max}
  </Text>
);

export interface ChannelEditorProps {
  domainUuid: string;
  siteRoot: string;
  value: ChannelState;
  onChange: (value: ChannelState) => void;
  errors?: FieldErrors;
  disabled?: boolean;
}

/** Push notification channel (CELL_NOTIFICATION) with live previews, a local test and repeats. */
export function ChannelEditor({ domainUuid, siteRoot, value, onChange, errors = {}, disabled }: ChannelEditorProps) {
  const channels = useDomainChannels(domainUuid);
  const push = pushChannelsOf(channels.data);
  const [picker, setPicker] = useState<'icon_uri' | 'image' | null>(null);
  const [testing, setTesting] = useState(false);
  const set = (patch: Partial<ChannelState>) => onChange({ ...value, ...patch });

  const runTest = async () => {
    setTesting(true);
    try {
      const problem = await showTestNotification({
        title: value.title,
        message: value.message,
        icon: value.icon_uri,
        image: value.image,
        redirect: value.redirect_uri,
      });
      if (problem) notifications.show({ color: 'yellow', title: 'Atenção', message: problem });
    } catch {
      notifications.show({ color: 'red', title: 'Erro', message: 'Não foi possível exibir a notificação de teste.' });
    } finally {
      setTesting(false);
    }
  };

  const pickerButton = (field: 'icon_uri' | 'image', label: string) => (
    <Tooltip label={label}>
      <ActionIcon variant="light" size="lg" aria-label={label} onClick={() => setPicker(field)} disabled={disabled}>
        <IconPhoto size={18} />
      </ActionIcon>
    </Tooltip>
  );

  return (
    <Stack gap="md">
      {channels.isError ? <Alert color="red">Não foi possível carregar os canais do domínio.</Alert> : null}
      {channels.isSuccess && push.length === 0 ? (
        <Alert color="yellow" icon={<IconPlugConnected />} title="Nenhum canal integrado">
          <Text size="sm">{NO_CHANNELS}</Text>
          <Anchor component={Link} to={withDomain('/channels', domainUuid)} size="sm" fw={600}>
            Integrar canais
          </Anchor>
        </Alert>
      ) : null}
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="sm">
            <Select
              label="Canal"
              placeholder="Escolha o canal"
              data={push.map((c) => ({ value: c.uuid, label: 'Notificação push' }))}
              value={value.channel_uuid || null}
              onChange={(channel_uuid) => set({ channel_uuid: channel_uuid ?? '' })}
              error={errors.channel_uuid}
              disabled={disabled}
              withAsterisk
            />
            <TextInput
              label="Nome da notificação"
              description="Identificação interna, não aparece para o visitante."
              value={value.name}
              onChange={(e) => set({ name: e.currentTarget.value })}
              error={errors.name}
              disabled={disabled}
              withAsterisk
            />
            <TextInput
              label="Título da notificação"
              value={value.title}
              maxLength={TITLE_MAX}
              onChange={(e) => set({ title: e.currentTarget.value })}
              rightSection={counter(value.title.length, TITLE_MAX)}
              rightSectionWidth={56}
              error={errors.title}
              disabled={disabled}
              withAsterisk
            />
            <Textarea
              label="Mensagem da notificação"
              value={value.message}
              maxLength={MESSAGE_MAX}
              autosize
              minRows={2}
              onChange={(e) => set({ message: e.currentTarget.value })}
              description={counter(value.message.length, MESSAGE_MAX)}
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              error={errors.message}
              disabled={disabled}
              withAsterisk
            />
            <Group align="flex-start" wrap="nowrap" gap="xs">
              <TextInput
                flex={1}
                label="URL do ícone"
                description="Recomendado: 100x100"
                placeholder="https://"
                value={value.icon_uri}
                onChange={(e) => set({ icon_uri: e.currentTarget.value })}
                error={errors.icon_uri}
                disabled={disabled}
                withAsterisk
              />
              <Box pt={46}>{pickerButton('icon_uri', 'Escolher ícone')}</Box>
            </Group>
            <Group align="flex-start" wrap="nowrap" gap="xs">
              <TextInput
                flex={1}
                label="URL da imagem"
                description="Opcional. Recomendado: 1000x500"
                placeholder="https://"
                value={value.image}
                onChange={(e) => set({ image: e.currentTarget.value })}
                error={errors.image}
                disabled={disabled}
              />
              <Box pt={46}>{pickerButton('image', 'Escolher imagem')}</Box>
            </Group>
            <TextInput
              label="URL de redirecionamento"
              placeholder={siteRoot ? `${siteRoot}/` : 'https://'}
              leftSection={<IconLink size={16} />}
              value={value.redirect_uri}
              onChange={(e) => set({ redirect_uri: e.currentTarget.value })}
              error={errors.redirect_uri}
              disabled={disabled}
              withAsterisk
            />
            <ButtonsEditor
              buttons={value.buttons}
              onChange={(buttons) => set({ buttons })}
              errors={errors}
              disabled={disabled}
            />
            <Paper withBorder p="sm" radius="md">
              <Switch
                label="Permitir mais de um envio"
                description="Reenvia a notificação depois de cada intervalo."
                checked={value.repeat}
                onChange={(e) => set({ repeat: e.currentTarget.checked, intervalRecurrency: [] })}
                disabled={disabled}
              />
              {value.repeat ? (
                <Box mt="sm">
                  <IntervalInput
                    label="Intervalos entre envios"
                    value={value.intervalRecurrency}
                    onChange={(intervalRecurrency) => set({ intervalRecurrency })}
                    error={errors.intervalRecurrency}
                    disabled={disabled}
                  />
                </Box>
              ) : null}
            </Paper>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="sm">
            <Group justify="space-between">
              <Text size="sm" fw={600}>
                Pré-visualização
              </Text>
              <Button
                size="xs"
                variant="light"
                leftSection={<IconBellRinging size={14} />}
                onClick={runTest}
                loading={testing}
              >
                Testar notificação
              </Button>
            </Group>
            <NotificationPreview
              title={value.title}
              message={value.message}
              icon={value.icon_uri}
              image={value.image}
              buttons={value.buttons}
              siteRoot={siteRoot}
            />
          </Stack>
        </Grid.Col>
      </Grid>
      {picker ? (
        <ImagePickerModal
          opened
          onClose={() => setPicker(null)}
          domainUuid={domainUuid}
          initialUrl={value[picker]}
          hint={picker === 'icon_uri' ? 'Tamanho recomendado: 100x100' : 'Tamanho recomendado: 1000x500'}
          onPick={(url) => set({ [picker]: url } as Partial<ChannelState>)}
        />
      ) : null}
    </Stack>
  );
}
