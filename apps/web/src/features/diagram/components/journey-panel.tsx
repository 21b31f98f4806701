import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  ThemeIcon,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconArrowLeft, IconPencil, IconPlus, IconRoute, IconTrash } from '@tabler/icons-react';
import {
  ConditionEditor,
  ExitEditor,
  type ExitState,
  emptyExperiment,
  type FieldErrors,
  WaitEditor,
} from '../../blocks/index.ts';
import { STEP_META, stepLabel, stepPartType, summarizeStepNode } from '../block-meta.ts';
import { type ChannelFormState, emptyChannelForm } from '../diagram-state.ts';
import { parseStepNodeId, type StepPart, stepNodeId } from '../graph.ts';
import { type DiagramStep, MAX_JOURNEY_STEPS, stepExperimentErrors, stepsToDraft } from '../journey.ts';
import { ChannelForm } from './channel-form.tsx';
import { ChannelVariants } from './channel-variants.tsx';

export interface JourneyPanelProps {
  steps: DiagramStep[];
  exit: ExitState;
  /** Field errors by step node id (shown after a save attempt). */
  errors: ReadonlyMap<string, FieldErrors>;
  /** Step node ids that are incomplete (always marked, like the blocks' 'Incompleto'). */
  invalid: ReadonlySet<string>;
  exitErrors: FieldErrors;
  readOnly: boolean;
  onAdd: () => void;
  onChange: (index: number, step: DiagramStep) => void;
  onRemove: (index: number) => void;
  onExit: (exit: ExitState) => void;
}

/** The overview under the blocks: the journey's steps in order, 'Adicionar etapa' and 'Sair da jornada quando'. */
export function JourneyOverview({
  journey,
  domainUuid,
  onSelect,
}: {
  journey: JourneyPanelProps;
  domainUuid: string;
  onSelect: (id: string) => void;
}) {
  const { steps, readOnly } = journey;
  const drafts = stepsToDraft(steps);
  const canAdd = !readOnly && steps.length < MAX_JOURNEY_STEPS;
  return (
    <Paper withBorder radius="md" p="sm" data-testid="panel-journey">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <ThemeIcon variant="light" color="indigo" radius="md" size={34}>
              <IconRoute size={18} />
            </ThemeIcon>
            <Stack gap={0}>
              <Text fw={600} size="sm">
                Jornada
              </Text>
              <Text size="xs" c="dimmed">
                {steps.length
                  ? `${steps.length} ${steps.length === 1 ? 'etapa' : 'etapas'} depois da primeira mensagem`
                  : 'Mensagens de acompanhamento depois da primeira, com espera e condição.'}
              </Text>
            </Stack>
          </Group>
          <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
            {steps.length} de {MAX_JOURNEY_STEPS}
          </Text>
        </Group>
        {drafts.map((draft, i) => {
          const n = i + 1;
          const parts: StepPart[] = [
            'wait',
            'condition',
            'message',
            ...(draft.otherwise ? ['otherwise' as const] : []),
          ];
          const incomplete = parts.some((p) => journey.invalid.has(stepNodeId(n, p)));
          const line = parts
            .map((part) =>
              summarizeStepNode({
                step: n,
                part,
                wait: draft.wait,
                condition: draft.condition,
                values: part === 'otherwise' ? (draft.otherwise ?? []) : draft.values,
                ...(part === 'message' && draft.variants?.length ? { variants: draft.variants } : {}),
                split: false,
                invalid: false,
                readOnly,
              }),
            )
            .join(' → ');
          return (
            <Group key={n} justify="space-between" wrap="nowrap" data-testid={`panel-step-${n}`}>
              <Stack gap={0} miw={0}>
                <Group gap={6}>
                  <Text size="sm" fw={600}>
                    {stepLabel(n)}
                  </Text>
                  {incomplete && !readOnly ? (
                    <Badge size="xs" color="yellow" variant="light">
                      Incompleto
                    </Badge>
                  ) : null}
                </Group>
                <Text size="xs" c="dimmed" lineClamp={2}>
                  {line}
                </Text>
              </Stack>
              <Button
                size="xs"
                variant="subtle"
                leftSection={<IconPencil size={14} />}
                onClick={() => onSelect(stepNodeId(n, 'wait'))}
                aria-label={`${readOnly ? 'Ver' : 'Editar'} ${stepLabel(n)}`}
                style={{ flexShrink: 0 }}
              >
                {readOnly ? 'Ver' : 'Editar'}
              </Button>
            </Group>
          );
        })}
        {readOnly ? null : (
          <Tooltip label="Uma jornada tem no máximo 5 etapas" disabled={canAdd}>
            <Button
              variant="light"
              size="xs"
              leftSection={<IconPlus size={14} />}
              onClick={journey.onAdd}
              disabled={!canAdd}
            >
              Adicionar etapa
            </Button>
          </Tooltip>
        )}
        {steps.length ? (
          <ExitEditor
            domainUuid={domainUuid}
            value={journey.exit}
            onChange={journey.onExit}
            errors={journey.exitErrors}
            disabled={readOnly}
          />
        ) : null}
      </Stack>
    </Paper>
  );
}

const PART_LABELS: Record<StepPart, string> = {
  wait: 'Espera',
  condition: 'Condição',
  message: 'Mensagem',
  otherwise: 'Senão',
};

/** One step's selected part (from the board or the overview), with the others a click away. */
export function StepPanel({
  nodeId,
  journey,
  domainUuid,
  siteRoot,
  onSelect,
}: {
  nodeId: string;
  journey: JourneyPanelProps;
  domainUuid: string;
  siteRoot: string;
  onSelect: (id: string | null) => void;
}) {
  const parsed = parseStepNodeId(nodeId);
  const step = parsed ? journey.steps[parsed.step - 1] : undefined;
  if (!parsed || !step) return null;
  const { step: n, part } = parsed;
  const index = n - 1;
  const { readOnly } = journey;
  const meta = STEP_META[stepPartType(part)];
  const Icon = meta.icon;
  const errors = journey.errors.get(nodeId) ?? {};
  const set = (patch: Partial<DiagramStep>) => journey.onChange(index, { ...step, ...patch });
  const parts: StepPart[] = ['wait', 'condition', 'message', ...(step.otherwise ? ['otherwise' as const] : [])];
  const messageForm = (value: ChannelFormState, onChange: (v: ChannelFormState) => void) => (
    <ChannelForm
      domainUuid={domainUuid}
      siteRoot={siteRoot}
      value={value}
      onChange={onChange}
      errors={errors}
      readOnly={readOnly}
    />
  );
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
        {readOnly ? null : (
          <Tooltip label={`Remover a ${stepLabel(n).toLowerCase()} inteira`}>
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Remover ${stepLabel(n)}`}
              onClick={() => {
                journey.onRemove(index);
                onSelect(null);
              }}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        )}
      </Group>
      <Group gap="sm" wrap="nowrap">
        <ThemeIcon variant="light" color={meta.color} radius="md" size={38}>
          <Icon size={20} />
        </ThemeIcon>
        <Stack gap={0}>
          <Title order={5}>
            {stepLabel(n)} · {PART_LABELS[part]}
          </Title>
          <Text size="xs" c="dimmed">
            {part === 'otherwise' ? 'A mensagem de quem não atende à condição.' : meta.hint}
          </Text>
        </Stack>
      </Group>
      <SegmentedControl
        size="xs"
        fullWidth
        value={part}
        onChange={(p) => onSelect(stepNodeId(n, p as StepPart))}
        data={parts.map((p) => ({
          value: p,
          label: `${PART_LABELS[p]}${journey.invalid.has(stepNodeId(n, p)) && !readOnly ? ' •' : ''}`,
        }))}
        aria-label={`Partes da ${stepLabel(n).toLowerCase()}`}
      />
      {part === 'wait' ? (
        <WaitEditor value={step.wait} onChange={(wait) => set({ wait })} errors={errors} disabled={readOnly} />
      ) : null}
      {part === 'condition' ? (
        <Stack gap="sm">
          <ConditionEditor
            domainUuid={domainUuid}
            value={step.condition}
            onChange={(condition) => set({ condition })}
            errors={errors}
            disabled={readOnly}
          />
          <Switch
            label="Quem não atende recebe outra mensagem (senão)"
            description="Sem ela, quem não atende à condição sai da jornada."
            checked={Boolean(step.otherwise)}
            disabled={readOnly}
            onChange={(e) => {
              const on = e.currentTarget.checked;
              set({
                otherwise: on
                  ? {
                      ...emptyChannelForm(),
                      channel_uuid: step.message.channel_uuid,
                      channel_type: step.message.channel_type,
                    }
                  : null,
              });
            }}
          />
        </Stack>
      ) : null}
      {part === 'message' ? (
        <ChannelVariants
          domainUuid={domainUuid}
          siteRoot={siteRoot}
          value={step.message}
          onChange={(message) => set({ message })}
          errors={errors}
          readOnly={readOnly}
          experiment={step.experiment ?? emptyExperiment()}
          onExperimentChange={(experiment) => set({ experiment })}
          experimentErrors={journey.errors.has(nodeId) ? (stepExperimentErrors(step) ?? {}) : {}}
          step
        />
      ) : null}
      {part === 'otherwise' && step.otherwise ? messageForm(step.otherwise, (otherwise) => set({ otherwise })) : null}
    </Stack>
  );
}
