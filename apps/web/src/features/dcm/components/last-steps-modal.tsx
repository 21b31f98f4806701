import { momentumMessages as mm } from '@impeto/shared';
import {
  Alert,
  Button,
  Grid,
  Group,
  Modal,
  Radio,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useMediaQuery } from '@mantine/hooks';
import { IconCalendarEvent, IconCode, IconDeviceFloppy, IconInfoCircle } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { type FieldErrors, fromZonedInput, nextQuarterInput, nowZonedInput } from '../../blocks/index.ts';
import {
  type DcmDispatcherState,
  type DcmDispatcherType,
  type DcmOptinModel,
  type DcmTemplate,
  DISPATCHER_LABELS,
  OPTIN_LABELS,
  TEMPLATE_LABELS,
} from '../dcm-state.ts';
import { DispatcherPreview, TOPBOX_DEFAULTS } from './dispatcher-preview.tsx';

export const LAST_STEPS_TITLE = 'Últimos passos';

const isPast = (input: string) => dayjs(fromZonedInput(input)).isBefore(dayjs());

export type ScheduleChoice = { status: 'Active'; scheduled_at: null } | { status: 'Paused'; scheduled_at: string };

export interface LastStepsModalProps {
  opened: boolean;
  onClose: () => void;
  value: DcmDispatcherState;
  onChange: (value: DcmDispatcherState) => void;
  errors: FieldErrors;
  /** An existing non-draft item keeps its status: no schedule choice (READINGS A-33). */
  keepsStatus: boolean;
  host: string;
  /** Sizes of the Tags customizadas' code, for the summary. */
  codeSummary: string;
  loading: boolean;
  onSave: (schedule: ScheduleChoice | null) => void;
}

/** 'Últimos passos': what the item shows (its tags, a template or the push opt-in) and when it starts. */
export function LastStepsModal({
  opened,
  onClose,
  value,
  onChange,
  errors,
  keepsStatus,
  host,
  codeSummary,
  loading,
  onSave,
}: LastStepsModalProps) {
  const [when, setWhen] = useState<'now' | 'schedule'>('now');
  const [at, setAt] = useState('');
  // The next quarter hour is offered when it is needed (the manager may have been open for hours): on choosing
  // Agendamento, and again on opening when the offer has gone by.
  const offerSchedule = () => setAt((current) => (current && !isPast(current) ? current : nextQuarterInput()));
  // biome-ignore lint/correctness/useExhaustiveDependencies: refreshed on opening only.
  useEffect(() => {
    if (opened && when === 'schedule') offerSchedule();
  }, [opened]);
  const [scheduleError, setScheduleError] = useState<string | null>(null);
  const set = (patch: Partial<DcmDispatcherState>) => onChange({ ...value, ...patch });
  const kind = value.dispatcher_type;
  const narrow = useMediaQuery('(max-width: 36em)') ?? false;

  const save = () => {
    if (keepsStatus) return onSave(null);
    if (when === 'now') return onSave({ status: 'Active', scheduled_at: null });
    if (!at) return setScheduleError(mm.scheduleRequired);
    const iso = fromZonedInput(at);
    if (dayjs(iso).isBefore(dayjs())) return setScheduleError(mm.schedulePast);
    setScheduleError(null);
    onSave({ status: 'Paused', scheduled_at: iso });
  };

  return (
    <Modal opened={opened} onClose={onClose} title={LAST_STEPS_TITLE} size={980} radius="lg" fullScreen={narrow}>
      <Stack gap="lg">
        <Stack gap={6}>
          <Title order={5}>O que exibir</Title>
          <SegmentedControl
            aria-label="O que exibir"
            orientation={narrow ? 'vertical' : 'horizontal'}
            fullWidth
            value={kind}
            onChange={(v) => set({ dispatcher_type: v as DcmDispatcherType })}
            data={(Object.keys(DISPATCHER_LABELS) as DcmDispatcherType[]).map((k) => ({
              value: k,
              label: DISPATCHER_LABELS[k],
            }))}
          />
        </Stack>

        {kind === 'custom' ? (
          <Alert variant="light" color="brand" icon={<IconCode />} title="O código das Tags customizadas">
            <Text size="sm">{codeSummary}</Text>
            {errors.customHtml ? (
              <Text size="sm" c="red" mt={4}>
                {errors.customHtml}
              </Text>
            ) : null}
          </Alert>
        ) : (
          <Grid gap="lg">
            <Grid.Col span={{ base: 12, md: 6 }}>
              <Stack gap="sm">
                {kind === 'template' ? (
                  <Stack gap={4}>
                    <Text size="sm" fw={500} id="dcm-template-label">
                      Template
                    </Text>
                    <SegmentedControl
                      aria-labelledby="dcm-template-label"
                      fullWidth
                      value={value.template}
                      onChange={(v) => set({ template: v as DcmTemplate })}
                      data={(Object.keys(TEMPLATE_LABELS) as DcmTemplate[]).map((t) => ({
                        value: t,
                        label: TEMPLATE_LABELS[t],
                      }))}
                    />
                    {errors.template ? (
                      <Text size="xs" c="red">
                        {errors.template}
                      </Text>
                    ) : null}
                  </Stack>
                ) : kind === 'notification' ? (
                  <Text size="sm" c="dimmed">
                    Enviada como notificação push aos visitantes inscritos que atenderem ao filtro e ao gatilho.
                  </Text>
                ) : (
                  <Radio.Group
                    label="Modelo de opt-in"
                    value={value.optin}
                    onChange={(v) => set({ optin: v as DcmOptinModel })}
                    error={errors.optin}
                  >
                    <SimpleGrid cols={2} mt={6} spacing="xs">
                      {(Object.keys(OPTIN_LABELS) as DcmOptinModel[]).map((o) => (
                        <Radio.Card key={o} value={o} p="sm" radius="md">
                          <Group wrap="nowrap" align="flex-start" gap="xs">
                            <Radio.Indicator />
                            <div>
                              <Text size="sm" fw={600}>
                                {OPTIN_LABELS[o].label}
                              </Text>
                              <Text size="xs" c="dimmed">
                                {OPTIN_LABELS[o].description}
                              </Text>
                            </div>
                          </Group>
                        </Radio.Card>
                      ))}
                    </SimpleGrid>
                  </Radio.Group>
                )}
                {kind === 'optin' && value.optin === 'default' ? (
                  <Text size="sm" c="dimmed">
                    O navegador mostra o próprio pedido de permissão; não há textos para preencher.
                  </Text>
                ) : (
                  <>
                    <TextInput
                      label="Título"
                      placeholder={kind === 'optin' ? TOPBOX_DEFAULTS.title : 'Ex.: Frete grátis hoje'}
                      value={value.title}
                      maxLength={80}
                      onChange={(e) => set({ title: e.currentTarget.value })}
                      error={errors.title}
                      withAsterisk={kind === 'notification'}
                    />
                    <Textarea
                      label="Mensagem"
                      placeholder={kind === 'optin' ? TOPBOX_DEFAULTS.message : 'Ex.: Em compras acima de R$ 199'}
                      autosize
                      minRows={2}
                      maxLength={300}
                      value={value.message}
                      onChange={(e) => set({ message: e.currentTarget.value })}
                      error={errors.message}
                      withAsterisk={(kind === 'template' && value.template !== 'image') || kind === 'notification'}
                    />
                    {kind === 'template' && value.template === 'image' ? (
                      <TextInput
                        label="URL da imagem"
                        placeholder="https://"
                        value={value.image}
                        onChange={(e) => set({ image: e.currentTarget.value })}
                        error={errors.image}
                        withAsterisk
                      />
                    ) : null}
                    {kind === 'template' || kind === 'notification' ? (
                      <TextInput
                        withAsterisk={kind === 'notification'}
                        label="Link (redirect_uri)"
                        placeholder="https://"
                        value={value.redirect_uri}
                        onChange={(e) => set({ redirect_uri: e.currentTarget.value })}
                        error={errors.redirect_uri}
                      />
                    ) : null}
                  </>
                )}
                <TextInput
                  label="Nome interno"
                  description="Só para você identificar nos relatórios."
                  value={value.name}
                  maxLength={200}
                  onChange={(e) => set({ name: e.currentTarget.value })}
                  error={errors.name}
                />
              </Stack>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <Text size="sm" fw={600} mb={6}>
                Pré-visualização
              </Text>
              <DispatcherPreview value={value} host={host} />
            </Grid.Col>
          </Grid>
        )}

        <Stack gap={6}>
          <Title order={5}>Quando publicar</Title>
          {keepsStatus ? (
            <Alert variant="light" color="gray" icon={<IconInfoCircle />}>
              Este conteúdo já foi publicado: o status atual é mantido ao salvar.
            </Alert>
          ) : (
            <>
              <Radio.Group
                value={when}
                onChange={(v) => {
                  setWhen(v as 'now' | 'schedule');
                  if (v === 'schedule') offerSchedule();
                }}
                aria-label="Quando publicar"
              >
                <Group gap="lg">
                  <Radio value="now" label="Imediato: ativo ao salvar" />
                  <Radio value="schedule" label="Agendamento" />
                </Group>
              </Radio.Group>
              {when === 'schedule' ? (
                <DateTimePicker
                  label="Data e hora"
                  placeholder="dd/mm/aaaa - hh:mm"
                  valueFormat="DD/MM/YYYY - HH:mm"
                  minDate={nowZonedInput()}
                  timePickerProps={{ minutesStep: 15 }}
                  value={at || null}
                  onChange={(v) => setAt(v ? String(v) : '')}
                  leftSection={<IconCalendarEvent size={16} />}
                  error={scheduleError}
                  maw={320}
                  popoverProps={{ withinPortal: true, zIndex: 500 }}
                />
              ) : null}
            </>
          )}
        </Stack>

        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancelar
          </Button>
          <Button leftSection={<IconDeviceFloppy size={16} />} onClick={save} loading={loading}>
            Salvar
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
