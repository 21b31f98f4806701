import {
  Accordion,
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  Paper,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconBellRinging,
  IconInfoCircle,
  IconLink,
  IconMessage2,
  IconPhoto,
  IconPlugConnected,
} from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { withDomain } from '../../../lib/navigation.ts';
import {
  ButtonsEditor,
  type FieldErrors,
  ImagePickerModal,
  IntervalInput,
  NotificationPreview,
  showTestNotification,
} from '../../blocks/index.ts';
import { useDomainChannels } from '../api/list-domain-channels.ts';
import {
  CHANNEL_LABELS,
  type ChannelFormState,
  DIAGRAM_CHANNEL_TYPES,
  DIAGRAM_MESSAGE_MAX,
  DIAGRAM_TITLE_MAX,
  diagramMessages,
  MESSAGE_LEVELS,
  TEXT_CHANNEL_FIELDS,
  TITLE_LEVELS,
} from '../diagram-state.ts';
import { WEBVIEW_MODE_LABELS, WEBVIEW_TYPE_LABELS, type WebviewState } from '../webview.ts';
import { CounterBar } from './counter-bar.tsx';
import { WebviewModal } from './webview-modal.tsx';

/** The diagram's push test asks for a title with its own text (spec doc 2 §5). */
export const DIAGRAM_TEST_TITLE_REQUIRED = 'A notificação precisa ter um título';

export interface ChannelFormProps {
  domainUuid: string;
  siteRoot: string;
  value: ChannelFormState;
  onChange: (value: ChannelFormState) => void;
  errors?: FieldErrors;
  readOnly?: boolean;
}

/** Canal: one of the domain's channels and its content; push with the diagram's 25/80 limits (READINGS A-1). */
export function ChannelForm({ domainUuid, siteRoot, value, onChange, errors = {}, readOnly }: ChannelFormProps) {
  const channels = useDomainChannels(domainUuid);
  const offered = (channels.data ?? []).filter(
    (c) => c.active !== false && (DIAGRAM_CHANNEL_TYPES as readonly string[]).includes(c.channel_type),
  );
  const [picker, setPicker] = useState<'icon_uri' | 'image' | null>(null);
  const [webviewOpen, setWebviewOpen] = useState(false);
  const set = (patch: Partial<ChannelFormState>) => onChange({ ...value, ...patch });
  const field = (key: string) => value.fields[key] ?? '';
  const setField = (key: string, text: string) => set({ fields: { ...value.fields, [key]: text } });
  const isPush = value.channel_type === 'CELL_NOTIFICATION';

  const runTest = async () => {
    if (!field('title').trim()) {
      notifications.show({ color: 'yellow', title: 'Atenção', message: DIAGRAM_TEST_TITLE_REQUIRED });
      return;
    }
    const problem = await showTestNotification({
      title: field('title'),
      message: field('message'),
      icon: field('icon_uri'),
      image: field('image'),
      redirect: field('redirect_uri'),
    }).catch(() => 'Não foi possível exibir a notificação de teste.');
    if (problem) notifications.show({ color: 'yellow', title: 'Atenção', message: problem });
  };

  const pickerButton = (key: 'icon_uri' | 'image', label: string) => (
    <Tooltip label={label}>
      <ActionIcon variant="light" size={36} aria-label={label} onClick={() => setPicker(key)} disabled={readOnly}>
        <IconPhoto size={18} />
      </ActionIcon>
    </Tooltip>
  );

  return (
    <Stack gap="sm">
      {channels.isError ? (
        <Alert color="red" variant="light">
          Não foi possível carregar os canais do domínio.
        </Alert>
      ) : null}
      {channels.isSuccess && offered.length === 0 ? (
        <Alert color="yellow" variant="light" icon={<IconPlugConnected />} title="Nenhum canal integrado">
          <Text size="sm" mb={6}>
            {diagramMessages.noChannels}
          </Text>
          <Anchor component={Link} to={withDomain('/channels', domainUuid)} size="sm" fw={600}>
            Integrar canais
          </Anchor>
        </Alert>
      ) : null}
      <Select
        label={
          <>
            Canal{' '}
            <Tooltip
              label="Os canais integrados ao domínio. Integre outros na página Canais."
              multiline
              w={240}
              withArrow
            >
              <IconInfoCircle size={14} style={{ verticalAlign: 'text-top' }} aria-label="Sobre os canais" />
            </Tooltip>
          </>
        }
        placeholder={channels.isPending ? 'Carregando canais...' : 'Escolha o canal'}
        data={offered.map((c) => ({ value: c.uuid, label: CHANNEL_LABELS[c.channel_type] ?? c.channel_type }))}
        value={value.channel_uuid || null}
        onChange={(uuid) => {
          const channel = offered.find((c) => c.uuid === uuid);
          set({ channel_uuid: uuid ?? '', channel_type: channel?.channel_type ?? value.channel_type });
        }}
        error={errors.channel_uuid ?? errors.filter ?? errors._}
        readOnly={readOnly}
        withAsterisk
        allowDeselect={false}
      />

      {isPush ? (
        <>
          <TextInput
            label="Nome da notificação"
            description="Identificação interna, não aparece para o visitante."
            value={field('name')}
            onChange={(e) => setField('name', e.currentTarget.value)}
            error={errors.name}
            readOnly={readOnly}
            withAsterisk
          />
          <div>
            <TextInput
              label="Título"
              value={field('title')}
              maxLength={DIAGRAM_TITLE_MAX}
              onChange={(e) => setField('title', e.currentTarget.value)}
              error={errors.title}
              readOnly={readOnly}
              withAsterisk
            />
            <CounterBar name="título" length={field('title').length} max={DIAGRAM_TITLE_MAX} levels={TITLE_LEVELS} />
          </div>
          <div>
            <Textarea
              label="Mensagem"
              value={field('message')}
              maxLength={DIAGRAM_MESSAGE_MAX}
              autosize
              minRows={2}
              onChange={(e) => setField('message', e.currentTarget.value)}
              error={errors.message}
              readOnly={readOnly}
              withAsterisk
            />
            <CounterBar
              name="mensagem"
              length={field('message').length}
              max={DIAGRAM_MESSAGE_MAX}
              levels={MESSAGE_LEVELS}
            />
          </div>
          <Group align="flex-end" wrap="nowrap" gap="xs">
            <TextInput
              flex={1}
              label="URL do ícone"
              description="Recomendado: 100x100"
              placeholder="https://"
              value={field('icon_uri')}
              onChange={(e) => setField('icon_uri', e.currentTarget.value)}
              error={errors.icon_uri}
              readOnly={readOnly}
              withAsterisk
            />
            {errors.icon_uri ? null : pickerButton('icon_uri', 'Escolher ícone')}
          </Group>
          <Group align="flex-end" wrap="nowrap" gap="xs">
            <TextInput
              flex={1}
              label="URL da imagem"
              description="Opcional. Recomendado: 1000x500"
              placeholder="https://"
              value={field('image')}
              onChange={(e) => setField('image', e.currentTarget.value)}
              error={errors.image}
              readOnly={readOnly}
            />
            {errors.image ? null : pickerButton('image', 'Escolher imagem')}
          </Group>
          <TextInput
            label="URL de redirecionamento"
            placeholder={siteRoot ? `${siteRoot.replace(/\/$/, '')}/` : 'https://'}
            leftSection={<IconLink size={16} />}
            value={field('redirect_uri')}
            onChange={(e) => setField('redirect_uri', e.currentTarget.value)}
            error={errors.redirect_uri}
            readOnly={readOnly}
            withAsterisk
          />
          <ButtonsEditor
            buttons={value.buttons}
            onChange={(buttons) => set({ buttons })}
            errors={errors}
            disabled={readOnly}
          />
          <Accordion variant="contained" radius="md">
            <Accordion.Item value="preview">
              <Accordion.Control icon={<IconBellRinging size={16} />}>Pré-visualização</Accordion.Control>
              <Accordion.Panel>
                <Stack gap="sm">
                  <NotificationPreview
                    title={field('title')}
                    message={field('message')}
                    icon={field('icon_uri')}
                    image={field('image')}
                    buttons={value.buttons}
                    siteRoot={siteRoot}
                  />
                  <Button size="xs" variant="light" onClick={runTest} leftSection={<IconBellRinging size={14} />}>
                    Testar notificação
                  </Button>
                </Stack>
              </Accordion.Panel>
            </Accordion.Item>
          </Accordion>
        </>
      ) : null}

      {value.channel_type === 'SUPERARE_WEBVIEW' ? (
        <WebviewSummary
          webview={value.webview}
          errors={errors}
          readOnly={readOnly}
          onOpen={() => setWebviewOpen(true)}
        />
      ) : null}

      {(TEXT_CHANNEL_FIELDS[value.channel_type] ?? []).map((f) =>
        f.long ? (
          <Textarea
            key={f.key}
            label={f.label}
            value={field(f.key)}
            autosize
            minRows={3}
            onChange={(e) => setField(f.key, e.currentTarget.value)}
            error={
              errors[f.key] ??
              (f.max && [...field(f.key)].length > f.max
                ? `A Zenvia envia até ${f.max} caracteres por SMS; textos maiores são recusados.`
                : undefined)
            }
            description={f.max ? `${[...field(f.key)].length}/${f.max} caracteres` : undefined}
            readOnly={readOnly}
            withAsterisk={f.required}
          />
        ) : (
          <TextInput
            key={f.key}
            label={f.label}
            value={field(f.key)}
            onChange={(e) => setField(f.key, e.currentTarget.value)}
            error={errors[f.key]}
            readOnly={readOnly}
            withAsterisk={f.required}
          />
        ),
      )}

      {value.channel_type ? (
        <Paper withBorder p="sm" radius="md">
          <Checkbox
            label="Permitir mais de um envio"
            description="Reenvia a mensagem depois de cada intervalo."
            checked={value.repeat}
            onChange={(e) => set({ repeat: e.currentTarget.checked, intervalRecurrency: [] })}
            disabled={readOnly}
          />
          {value.repeat ? (
            <Stack mt="sm">
              <IntervalInput
                label="Intervalos entre envios"
                value={value.intervalRecurrency}
                onChange={(intervalRecurrency) => set({ intervalRecurrency })}
                error={errors.intervalRecurrency}
                readOnly={readOnly}
              />
            </Stack>
          ) : null}
        </Paper>
      ) : null}

      {picker ? (
        <ImagePickerModal
          opened
          onClose={() => setPicker(null)}
          domainUuid={domainUuid}
          initialUrl={field(picker)}
          hint={picker === 'icon_uri' ? 'Tamanho recomendado: 100x100' : 'Tamanho recomendado: 1000x500'}
          onPick={(url) => setField(picker, url)}
        />
      ) : null}
      {webviewOpen ? (
        <WebviewModal
          opened
          onClose={() => setWebviewOpen(false)}
          value={value.webview}
          readOnly={readOnly}
          onSave={(webview) => {
            set({ webview });
            setWebviewOpen(false);
          }}
        />
      ) : null}
    </Stack>
  );
}

function WebviewSummary({
  webview,
  errors,
  readOnly,
  onOpen,
}: {
  webview: WebviewState;
  errors: FieldErrors;
  readOnly?: boolean;
  onOpen: () => void;
}) {
  const props = webview.props[webview.webview_type];
  const headline =
    webview.webview_type === 'notification_box'
      ? props.notificationTitle
      : webview.webview_type === 'topbar'
        ? props.topbarContent
        : props.alertContent;
  const problems = Object.entries(errors).filter(([key]) => key.startsWith('webview'));
  return (
    <Paper withBorder p="sm" radius="md" bg="var(--mantine-color-gray-0)">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={2} miw={0}>
          <Text size="sm" fw={600}>
            {WEBVIEW_TYPE_LABELS[webview.webview_type]}
          </Text>
          <Text size="xs" c="dimmed">
            {WEBVIEW_MODE_LABELS[webview.webview_mode as keyof typeof WEBVIEW_MODE_LABELS] ?? webview.webview_mode}
          </Text>
          <Text size="xs" lineClamp={2}>
            {headline?.trim() || 'Mensagem ainda não personalizada'}
          </Text>
        </Stack>
        <Button
          size="xs"
          variant="light"
          leftSection={<IconMessage2 size={14} />}
          onClick={onOpen}
          style={{ flexShrink: 0 }}
        >
          {readOnly ? 'Visualizar mensagem' : 'Customizar mensagem'}
        </Button>
      </Group>
      {problems.length ? (
        <Stack gap={2} mt="xs">
          {problems.map(([key, message]) => (
            <Text key={key} size="xs" c="red">
              {message}
            </Text>
          ))}
        </Stack>
      ) : null}
    </Paper>
  );
}
