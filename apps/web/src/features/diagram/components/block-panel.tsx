import {
  ActionIcon,
  Badge,
  Box,
  Button,
  Group,
  Paper,
  Progress,
  ScrollArea,
  Stack,
  Text,
  ThemeIcon,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconArrowLeft, IconCheck, IconEye, IconLock, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import {
  type ExperimentState,
  emptyExperiment,
  type FieldErrors,
  FilterEditor,
  TriggerEditor,
} from '../../blocks/index.ts';
import { BLOCK_META } from '../block-meta.ts';
import type { ChannelFormState, DiagramForms } from '../diagram-state.ts';
import { BLOCK_ORDER, type DiagramBlockType, type DiagramKind } from '../graph.ts';
import { ChannelVariants, type ExperimentErrors } from './channel-variants.tsx';
import { TourTarget } from './diagram-tour.tsx';
import { FinishForm } from './finish-form.tsx';
import { JourneyOverview, type JourneyPanelProps, StepPanel } from './journey-panel.tsx';

export const ALL_ADDED = 'Todos os blocos foram adicionados';

/** The panel's heading: Passo N while blocks are missing, then ALL_ADDED (spec doc 2 §2.4). */
export const stepHeading = (presentCount: number, next: DiagramBlockType | null) =>
  next ? `Passo ${presentCount + 1}` : ALL_ADDED;

export type PanelMode = 'view' | 'edit' | 'new';
export const modeLabel = (mode: PanelMode, kind: DiagramKind) =>
  mode === 'view'
    ? 'Visualizar'
    : mode === 'edit'
      ? 'Editando'
      : kind === 'campaign'
        ? 'Monte sua campanha'
        : 'Monte seu momentum';

const TOUR_STEP: Partial<Record<DiagramBlockType, number>> = { filter: 2, trigger: 3, dispatcher: 4 };

export interface BlockPanelProps {
  kind: DiagramKind;
  mode: PanelMode;
  forms: DiagramForms;
  next: DiagramBlockType | null;
  /** A block's type or a journey step node's id ('step-2-condition'). */
  selected: string | null;
  errors: Partial<Record<DiagramBlockType, FieldErrors>>;
  /** Blocks of a non-draft item that cannot change (READINGS A-33). */
  locked: ReadonlySet<DiagramBlockType>;
  domainUuid: string;
  siteRoot: string;
  host: string;
  onSelect: (id: string | null) => void;
  onAdd: (type: DiagramBlockType) => void;
  onRemove: (type: DiagramBlockType) => void;
  onChange: <T extends DiagramBlockType>(type: T, form: NonNullable<DiagramForms[T]>) => void;
  /** The channel block's 'Teste A/B' (issue #25). */
  experiment?: ExperimentState<ChannelFormState>;
  onExperimentChange?: (value: ExperimentState<ChannelFormState>) => void;
  experimentErrors?: ExperimentErrors;
  /** The journey's steps and exit rules (issue #26): momentums with a message block only. */
  journey?: JourneyPanelProps;
}

export function BlockPanel(props: BlockPanelProps) {
  const { kind, mode, forms, next, selected } = props;
  const order = BLOCK_ORDER[kind];
  const present = order.filter((t) => forms[t]);
  const readOnly = mode === 'view';

  return (
    <Paper withBorder radius="md" shadow="xs" h="100%" style={{ display: 'flex', flexDirection: 'column' }}>
      <Stack gap={6} p="md" pb="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}>
        <Group justify="space-between">
          <Badge variant="light" color={mode === 'view' ? 'gray' : mode === 'edit' ? 'orange' : 'brand'}>
            {modeLabel(mode, kind)}
          </Badge>
          <Text size="xs" c="dimmed">
            {present.length} de {order.length} blocos
          </Text>
        </Group>
        <Title order={4} data-testid="panel-heading">
          {stepHeading(present.length, next)}
        </Title>
        <Progress
          value={(present.length / order.length) * 100}
          size="xs"
          radius="xl"
          aria-label={`${present.length} de ${order.length} blocos adicionados`}
        />
      </Stack>
      <ScrollArea flex={1} type="auto" offsetScrollbars>
        <Stack p="md" gap="sm">
          {selected && props.journey && selected.startsWith('step-') ? (
            <StepPanel
              nodeId={selected}
              journey={props.journey}
              domainUuid={props.domainUuid}
              siteRoot={props.siteRoot}
              onSelect={props.onSelect}
            />
          ) : selected && forms[selected as DiagramBlockType] ? (
            <SelectedBlock {...props} type={selected as DiagramBlockType} readOnly={readOnly} />
          ) : (
            order.map((type) => (
              <BlockRow
                key={type}
                type={type}
                isPresent={Boolean(forms[type])}
                isNext={type === next && !readOnly}
                readOnly={readOnly}
                invalid={Boolean(props.errors[type])}
                onSelect={() => props.onSelect(type)}
                onAdd={() => props.onAdd(type)}
                previous={order[order.indexOf(type) - 1]}
              />
            ))
          )}
          {!selected && props.journey ? (
            <JourneyOverview journey={props.journey} domainUuid={props.domainUuid} onSelect={props.onSelect} />
          ) : null}
        </Stack>
      </ScrollArea>
    </Paper>
  );
}

function BlockRow({
  type,
  isPresent,
  isNext,
  readOnly,
  invalid,
  onSelect,
  onAdd,
  previous,
}: {
  type: DiagramBlockType;
  isPresent: boolean;
  isNext: boolean;
  readOnly: boolean;
  invalid: boolean;
  onSelect: () => void;
  onAdd: () => void;
  previous: DiagramBlockType | undefined;
}) {
  const meta = BLOCK_META[type];
  const Icon = meta.icon;
  let action: ReactNode;
  if (isPresent) {
    action = (
      <Button
        size="xs"
        variant="subtle"
        leftSection={readOnly ? <IconEye size={14} /> : <IconPencil size={14} />}
        onClick={onSelect}
        aria-label={`${readOnly ? 'Ver' : 'Editar'} ${meta.label}`}
      >
        {readOnly ? 'Ver' : 'Editar'}
      </Button>
    );
  } else if (isNext) {
    action = (
      <Button size="xs" leftSection={<IconPlus size={14} />} onClick={onAdd}>
        Adicionar {meta.label}
      </Button>
    );
  } else {
    action = (
      <Tooltip label={previous ? `Adicione antes o bloco ${BLOCK_META[previous].label}` : 'Indisponível'}>
        <Group gap={4} c="dimmed" aria-label={`${meta.label} bloqueado`}>
          <IconLock size={14} />
          <Text size="xs">Bloqueado</Text>
        </Group>
      </Tooltip>
    );
  }
  const row = (
    <Paper
      withBorder
      radius="md"
      p="sm"
      // A blocked block is told by its grey background and 'Bloqueado', not by fading its text below AA contrast.
      bg={isNext ? `var(--mantine-color-${meta.color}-0)` : !isPresent ? 'var(--mantine-color-gray-0)' : undefined}
      data-testid={`panel-block-${type}`}
    >
      <Group justify="space-between" wrap="nowrap">
        <Group gap="sm" wrap="nowrap" miw={0}>
          <ThemeIcon variant={isPresent ? 'filled' : 'light'} color={meta.color} radius="md" size={34}>
            {isPresent && !invalid ? <IconCheck size={18} /> : <Icon size={18} />}
          </ThemeIcon>
          <Stack gap={0} miw={0}>
            <Group gap={6}>
              <Text fw={600} size="sm">
                {meta.label}
              </Text>
              {isPresent && invalid && !readOnly ? (
                <Badge size="xs" color="yellow" variant="light">
                  Incompleto
                </Badge>
              ) : null}
            </Group>
            <Text size="xs" c="dimmed" lineClamp={1}>
              {meta.hint}
            </Text>
          </Stack>
        </Group>
        <Box style={{ flexShrink: 0 }}>{action}</Box>
      </Group>
    </Paper>
  );
  const step = TOUR_STEP[type];
  return step === undefined ? row : <TourTarget step={step}>{row}</TourTarget>;
}

function SelectedBlock(props: BlockPanelProps & { type: DiagramBlockType; readOnly: boolean }) {
  const { type, forms, errors, locked, readOnly, domainUuid, siteRoot, host, onChange, onSelect, onRemove } = props;
  const meta = BLOCK_META[type];
  const Icon = meta.icon;
  const isLocked = locked.has(type);
  const disabled = readOnly || isLocked;
  const blockErrors = errors[type] ?? {};
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="nowrap">
        <Button
          variant="subtle"
          size="compact-sm"
          leftSection={<IconArrowLeft size={14} />}
          onClick={() => onSelect(null)}
          px={4}
        >
          Blocos
        </Button>
        {!disabled ? (
          <Tooltip label={`Remover o bloco ${meta.label}`}>
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Remover ${meta.label}`}
              onClick={() => onRemove(type)}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        ) : null}
      </Group>
      <Group gap="sm" wrap="nowrap">
        <ThemeIcon variant="light" color={meta.color} radius="md" size={38}>
          <Icon size={20} />
        </ThemeIcon>
        <Stack gap={0}>
          <Title order={5}>{meta.label}</Title>
          <Text size="xs" c="dimmed">
            {meta.hint}
          </Text>
        </Stack>
      </Group>
      {isLocked && !readOnly ? (
        <Text size="xs" c="dimmed">
          Este bloco não pode ser alterado depois que o item sai do rascunho.
        </Text>
      ) : null}
      {type === 'filter' && forms.filter ? (
        <FilterEditor
          domainUuid={domainUuid}
          value={forms.filter}
          onChange={(v) => onChange('filter', v)}
          errors={blockErrors}
          disabled={disabled}
        />
      ) : null}
      {type === 'trigger' && forms.trigger ? (
        <TriggerEditor
          domainUuid={domainUuid}
          host={host}
          value={forms.trigger}
          onChange={(v) => onChange('trigger', v)}
          errors={blockErrors}
          disabled={disabled}
        />
      ) : null}
      {type === 'dispatcher' && forms.dispatcher ? (
        <ChannelVariants
          domainUuid={domainUuid}
          siteRoot={siteRoot}
          value={forms.dispatcher}
          onChange={(v) => onChange('dispatcher', v)}
          errors={blockErrors}
          readOnly={disabled}
          experiment={props.experiment ?? emptyExperiment()}
          onExperimentChange={(v) => props.onExperimentChange?.(v)}
          experimentErrors={props.experimentErrors ?? {}}
        />
      ) : null}
      {type === 'finish' && forms.finish ? (
        <FinishForm
          value={forms.finish}
          onChange={(v) => onChange('finish', v)}
          errors={blockErrors}
          readOnly={disabled}
        />
      ) : null}
    </Stack>
  );
}
