import {
  Button,
  ColorInput,
  Grid,
  Group,
  Modal,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import { WebviewPreview } from '../../blocks/index.ts';
import {
  type AlertPosition,
  WEBVIEW_MODE_LABELS,
  WEBVIEW_MODES,
  WEBVIEW_TYPE_LABELS,
  WEBVIEW_TYPES,
  type WebviewState,
  type WebviewType,
  webviewInput,
  webviewProblems,
} from '../webview.ts';
import { PositionGrid } from './position-grid.tsx';

export const WEBVIEW_MODAL_TITLE = 'Construa sua própria notificação on-site customizada';

const POSITION_LABELS: Record<AlertPosition, string> = {
  topLeft: 'Topo à esquerda',
  topCenter: 'Topo ao centro',
  topRight: 'Topo à direita',
  centerLeft: 'Centro à esquerda',
  centerCenter: 'Centro',
  centerRight: 'Centro à direita',
  bottomLeft: 'Base à esquerda',
  bottomCenter: 'Base ao centro',
  bottomRight: 'Base à direita',
};

interface FieldSpec {
  key: string;
  label: string;
  kind: 'text' | 'long' | 'color' | 'url';
  required?: boolean;
}

const FIELDS: Record<WebviewType, FieldSpec[]> = {
  notification_box: [
    { key: 'notificationTitle', label: 'Título', kind: 'text', required: true },
    { key: 'notificationContent', label: 'Conteúdo', kind: 'long', required: true },
    { key: 'notificationImage', label: 'URL da imagem', kind: 'url' },
    { key: 'notificationButtonText', label: 'Texto do botão (CTA)', kind: 'text', required: true },
    { key: 'notificationButtonUrl', label: 'URL do botão', kind: 'url' },
    { key: 'titleColor', label: 'Cor do título', kind: 'color' },
    { key: 'descriptionColor', label: 'Cor do conteúdo', kind: 'color' },
    { key: 'btnBackground', label: 'Cor de fundo do botão', kind: 'color' },
    { key: 'btnColor', label: 'Cor do texto do botão', kind: 'color' },
    { key: 'boxColor', label: 'Fundo da caixa', kind: 'color' },
  ],
  topbar: [
    { key: 'topbarContent', label: 'Conteúdo', kind: 'long', required: true },
    { key: 'topbarBtnText', label: 'Texto do botão (CTA)', kind: 'text', required: true },
    { key: 'topbarBtnUrl', label: 'URL do botão', kind: 'url' },
    { key: 'topbarContentColor', label: 'Cor do conteúdo', kind: 'color' },
    { key: 'topbarBtnColor', label: 'Cor do texto do botão', kind: 'color' },
    { key: 'topbarBtnBackground', label: 'Cor de fundo do botão', kind: 'color' },
    { key: 'topbarBackgroundColor', label: 'Fundo da barra', kind: 'color' },
  ],
  alert_box: [
    { key: 'alertContent', label: 'Conteúdo', kind: 'long', required: true },
    { key: 'alertContentColor', label: 'Cor do conteúdo', kind: 'color' },
    { key: 'alertBackgroundColor', label: 'Fundo do alerta', kind: 'color' },
  ],
};

export interface WebviewModalProps {
  opened: boolean;
  onClose: () => void;
  value: WebviewState;
  onSave: (value: WebviewState) => void;
  readOnly?: boolean;
}

/** Spec doc 2 §2.5: type and device on top, the form on the left, a live preview on the right. */
export function WebviewModal({ opened, onClose, value, onSave, readOnly }: WebviewModalProps) {
  const [draft, setDraft] = useState<WebviewState>(value);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const type = draft.webview_type;
  const props = draft.props[type];
  const setProp = (key: string, text: string) =>
    setDraft((d) => ({ ...d, props: { ...d.props, [d.webview_type]: { ...d.props[d.webview_type], [key]: text } } }));

  const save = () => {
    const problems = webviewProblems(webviewInput(draft));
    setErrors(problems);
    // The spec's rule: with a required text missing, saving does nothing (the fields say why).
    if (Object.keys(problems).length === 0) onSave(draft);
  };

  return (
    <Modal opened={opened} onClose={onClose} title={WEBVIEW_MODAL_TITLE} size={1040} zIndex={400}>
      <Stack gap="md">
        <Group grow align="flex-end">
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              Tipo
            </Text>
            <SegmentedControl
              aria-label="Tipo da mensagem"
              value={type}
              onChange={(v) => {
                setErrors({});
                setDraft((d) => ({ ...d, webview_type: v as WebviewType }));
              }}
              data={WEBVIEW_TYPES.map((t) => ({ value: t, label: WEBVIEW_TYPE_LABELS[t] }))}
              readOnly={readOnly}
            />
          </Stack>
          <Select
            label="Dispositivos"
            data={WEBVIEW_MODES.map((m) => ({ value: m, label: WEBVIEW_MODE_LABELS[m] }))}
            value={draft.webview_mode}
            onChange={(v) => setDraft((d) => ({ ...d, webview_mode: v ?? 'devices_all' }))}
            allowDeselect={false}
            readOnly={readOnly}
            comboboxProps={{ zIndex: 410 }}
          />
        </Group>
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 6 }}>
            <Stack gap="sm">
              {type === 'alert_box' ? (
                <PositionGrid
                  labels={POSITION_LABELS}
                  value={(props.alertPosition as AlertPosition | undefined) ?? 'topRight'}
                  onChange={(v) => setProp('alertPosition', v)}
                  readOnly={readOnly}
                />
              ) : null}
              {FIELDS[type]
                .filter((f) => f.kind !== 'color')
                .map((f) =>
                  f.kind === 'long' ? (
                    <Textarea
                      key={f.key}
                      label={f.label}
                      autosize
                      minRows={2}
                      value={props[f.key] ?? ''}
                      onChange={(e) => setProp(f.key, e.currentTarget.value)}
                      error={errors[`webview_props.${f.key}`]}
                      withAsterisk={f.required}
                      readOnly={readOnly}
                    />
                  ) : (
                    <TextInput
                      key={f.key}
                      label={f.label}
                      placeholder={f.kind === 'url' ? 'https://' : undefined}
                      value={props[f.key] ?? ''}
                      onChange={(e) => setProp(f.key, e.currentTarget.value)}
                      error={errors[`webview_props.${f.key}`]}
                      withAsterisk={f.required}
                      readOnly={readOnly}
                    />
                  ),
                )}
              <SimpleGrid cols={2} spacing="sm">
                {FIELDS[type]
                  .filter((f) => f.kind === 'color')
                  .map((f) => (
                    <ColorInput
                      key={f.key}
                      label={f.label}
                      format="hex"
                      value={props[f.key] ?? ''}
                      onChange={(v) => setProp(f.key, v)}
                      readOnly={readOnly}
                      popoverProps={{ zIndex: 410 }}
                    />
                  ))}
              </SimpleGrid>
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <Text size="sm" fw={600} mb={6}>
              Pré-visualização
            </Text>
            <WebviewPreview type={type} props={props} />
          </Grid.Col>
        </Grid>
        <Group justify="flex-end">
          {readOnly ? (
            <Button onClick={onClose}>Fechar</Button>
          ) : (
            <>
              <Button variant="default" onClick={onClose}>
                Cancelar
              </Button>
              <Button onClick={save}>Salvar mensagem</Button>
            </>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
