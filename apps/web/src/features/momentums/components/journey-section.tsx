import { describeWait, MAX_JOURNEY_STEPS } from '@impeto/shared';
import { ActionIcon, Alert, Badge, Button, Group, Paper, Stack, Switch, Tabs, Text, Tooltip } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconInfoCircle, IconPlus, IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import {
  ChannelEditor,
  type ChannelState,
  ConditionEditor,
  channelFromBlock,
  checkCondition,
  checkDispatcher,
  checkExit,
  checkWait,
  describeCondition,
  dispatcherBlockInput,
  ExitEditor,
  type ExitState,
  emptyChannel,
  type FieldErrors,
  newStep,
  type StepState,
  stepFromWire,
  stepInput,
  WaitEditor,
} from '../../blocks/index.ts';

/*
 * The v2 form's 'Jornada' (issue #26): the momentum's follow-up steps as a list. The form's message is a push, so a
 * step's message is edited with the same push editor; a step made in the diagram on another channel (SMS, e-mail,
 * on-site) is kept as it is and said to be edited in the diagram.
 */

export type FormStepMessage =
  | { kind: 'push'; channel: ChannelState }
  | { kind: 'other'; value: Record<string, unknown> };
export type FormStep = StepState<FormStepMessage>;

const CHANNEL_NAMES: Record<string, string> = {
  SUPERARE_WEBVIEW: 'Mensagem on-site',
  ZENVIA: 'SMS (Zenvia)',
  AWS_SES: 'E-mail (AWS SES)',
  AKNA: 'E-mail marketing (Akna)',
  ONE_SIGNAL: 'OneSignal',
};

export const messageFromValue = (value: unknown): FormStepMessage => {
  const v = (value ?? {}) as Record<string, unknown>;
  if (!v.filter || v.filter === 'CELL_NOTIFICATION')
    return { kind: 'push', channel: channelFromBlock({ values: [v] }, null) };
  return { kind: 'other', value: v };
};
export const messageValue = (m: FormStepMessage) =>
  m.kind === 'push' ? dispatcherBlockInput(m.channel).values[0] : m.value;

export const formStepsFromItem = (steps: readonly unknown[] | null | undefined): FormStep[] =>
  (steps ?? []).map((s) => stepFromWire(s, messageFromValue));
export const formStepsInput = (steps: readonly FormStep[]) => steps.map((s) => stepInput(s, messageValue));

/** 'Notificação push: Ainda pensando?' / 'SMS (Zenvia)'. */
export function describeMessage(m: FormStepMessage): string {
  if (m.kind === 'other') return CHANNEL_NAMES[String(m.value.filter)] ?? String(m.value.filter);
  return m.channel.title.trim() ? `Notificação push: ${m.channel.title.trim()}` : 'Notificação push';
}

/** 'Esperar 1 dia → Não converteu → Notificação push: …' (the list and the Resumo). */
export function describeFormStep(s: FormStep): string {
  const amount = Number(s.wait.amount);
  const wait = Number.isInteger(amount) && amount > 0 ? describeWait({ ...s.wait, amount }) : 'Espera a definir';
  const split = s.otherwise ? ` (senão: ${describeMessage(s.otherwise)})` : '';
  // Variants are edited in the diagram; the form keeps them (A follows the step's message) and says they are there.
  const ab = s.experiment?.ab ? ` · Teste A/B: ${s.experiment.others.length + 1} variantes` : '';
  return `${wait} → ${describeCondition(s.condition as never)} → ${describeMessage(s.message)}${ab}${split}`;
}

/** 'converte, descadastra-se do canal' — the exit rules that are on. */
export function describeExit(e: ExitState): string {
  const rules = [
    e.on_conversion ? 'converte' : null,
    e.on_opt_out ? 'descadastra-se do canal' : null,
    e.filter.enabled ? 'atende ao filtro de saída' : null,
  ].filter(Boolean);
  return rules.length ? `Sai da jornada quando ${rules.join(', ')}.` : 'Ninguém sai da jornada antes da última etapa.';
}

export type JourneyErrors = Record<string, FieldErrors>;

/** The steps' and exit's errors, keyed '<index>.wait' | '.condition' | '.message' | '.otherwise', and 'exit'. */
export function checkJourney(steps: readonly FormStep[], exit: ExitState): JourneyErrors {
  const out: JourneyErrors = {};
  const message = (m: FormStepMessage) => {
    if (m.kind === 'other') return {};
    const d = checkDispatcher(m.channel);
    return d.ok ? {} : d.errors;
  };
  steps.forEach((s, i) => {
    const parts: [string, FieldErrors][] = [
      ['wait', checkWait(s.wait)],
      ['condition', checkCondition(s.condition)],
      ['message', message(s.message)],
      ['otherwise', s.otherwise ? message(s.otherwise) : {}],
    ];
    for (const [part, errors] of parts) if (Object.keys(errors).length) out[`${i}.${part}`] = errors;
  });
  if (steps.length) {
    const e = checkExit(exit);
    if (Object.keys(e).length) out.exit = e;
  }
  return out;
}

export interface JourneySectionProps {
  domainUuid: string;
  siteRoot: string;
  /** The form's push channel: every push step goes through it. */
  channelUuid: string;
  /** The form's own message: a new step starts as its copy, to be rewritten. */
  firstMessage: ChannelState;
  steps: FormStep[];
  exit: ExitState;
  errors?: JourneyErrors;
  onSteps: (steps: FormStep[]) => void;
  onExit: (exit: ExitState) => void;
  /** How many steps came with the item (they start closed; added ones open). */
  storedCount?: number;
}

export function JourneySection({
  domainUuid,
  siteRoot,
  channelUuid,
  firstMessage,
  steps,
  exit,
  errors = {},
  onSteps,
  onExit,
  storedCount = 0,
}: JourneySectionProps) {
  const canAdd = steps.length < MAX_JOURNEY_STEPS;
  const change = (i: number, step: FormStep) => onSteps(steps.map((s, j) => (j === i ? step : s)));
  return (
    <Stack gap="md">
      {steps.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nenhuma etapa: o momentum envia uma mensagem. Adicione etapas para lembrar quem ainda não comprou — por
          exemplo, um push agora e outro depois de 1 dia se a pessoa não converteu.
        </Text>
      ) : null}
      {steps.map((step, i) => (
        <StepCard
          // Steps are only added at the end and removed: the index names the step.
          // biome-ignore lint/suspicious/noArrayIndexKey: steps have no identity besides their position
          key={i}
          n={i + 1}
          step={step}
          errors={errors}
          domainUuid={domainUuid}
          siteRoot={siteRoot}
          channelUuid={channelUuid}
          onChange={(s) => change(i, s)}
          onRemove={() => onSteps(steps.filter((_, j) => j !== i))}
          defaultOpen={i >= storedCount}
        />
      ))}
      <Group>
        <Tooltip label="Uma jornada tem no máximo 5 etapas" disabled={canAdd}>
          <Button
            variant="light"
            leftSection={<IconPlus size={16} />}
            disabled={!canAdd}
            onClick={() =>
              onSteps([...steps, newStep<FormStepMessage>({ kind: 'push', channel: { ...firstMessage } })])
            }
          >
            Adicionar etapa
          </Button>
        </Tooltip>
        <Text size="xs" c="dimmed">
          {steps.length} de {MAX_JOURNEY_STEPS} etapas
        </Text>
      </Group>
      {steps.length ? <ExitEditor domainUuid={domainUuid} value={exit} onChange={onExit} errors={errors.exit} /> : null}
    </Stack>
  );
}

function StepCard({
  n,
  step,
  errors,
  domainUuid,
  siteRoot,
  channelUuid,
  onChange,
  onRemove,
  defaultOpen,
}: {
  defaultOpen: boolean;
  n: number;
  step: FormStep;
  errors: JourneyErrors;
  domainUuid: string;
  siteRoot: string;
  channelUuid: string;
  onChange: (step: FormStep) => void;
  onRemove: () => void;
}) {
  const i = n - 1;
  const failing = ['wait', 'condition', 'message', 'otherwise'].some((p) => errors[`${i}.${p}`]);
  const [open, setOpen] = useOpen(defaultOpen, failing);
  const set = (patch: Partial<FormStep>) => onChange({ ...step, ...patch });
  const messageEditor = (m: FormStepMessage, part: 'message' | 'otherwise') =>
    m.kind === 'push' ? (
      <ChannelEditor
        domainUuid={domainUuid}
        siteRoot={siteRoot}
        value={{ ...m.channel, channel_uuid: channelUuid }}
        onChange={(channel) => set({ [part]: { kind: 'push', channel } })}
        errors={errors[`${i}.${part}`]}
      />
    ) : (
      <Alert variant="light" color="gray" icon={<IconInfoCircle />}>
        {describeMessage(m)}: esta mensagem foi criada no diagrama, onde pode ser editada.
      </Alert>
    );
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      data-testid={`journey-step-${n}`}
      aria-label={`Etapa ${n}`}
      component="section"
    >
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={2} miw={0}>
          <Group gap={6}>
            <Badge variant="light">Etapa {n}</Badge>
            {failing ? (
              <Badge variant="light" color="red">
                Incompleta
              </Badge>
            ) : null}
          </Group>
          <Text size="sm" c="dimmed">
            {describeFormStep(step)}
          </Text>
        </Stack>
        <Group gap={4} wrap="nowrap">
          <Button
            size="xs"
            variant="subtle"
            onClick={() => setOpen(!open)}
            rightSection={open ? <IconChevronUp size={14} /> : <IconChevronDown size={14} />}
            aria-label={`${open ? 'Recolher' : 'Editar'} etapa ${n}`}
          >
            {open ? 'Recolher' : 'Editar'}
          </Button>
          <Tooltip label={`Remover a etapa ${n}`}>
            <ActionIcon variant="subtle" color="red" aria-label={`Remover etapa ${n}`} onClick={onRemove}>
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      {open ? (
        <Stack gap="md" mt="md">
          <WaitEditor value={step.wait} onChange={(wait) => set({ wait })} errors={errors[`${i}.wait`]} />
          <ConditionEditor
            domainUuid={domainUuid}
            value={step.condition}
            onChange={(condition) => set({ condition })}
            errors={errors[`${i}.condition`]}
          />
          <Switch
            label="Quem não atende recebe outra mensagem (senão)"
            description="Sem ela, quem não atende à condição sai da jornada."
            checked={Boolean(step.otherwise)}
            onChange={(e) =>
              set({
                otherwise: e.currentTarget.checked
                  ? {
                      kind: 'push',
                      channel: step.message.kind === 'push' ? { ...step.message.channel } : emptyChannel(),
                    }
                  : null,
              })
            }
          />
          <Tabs defaultValue="message" keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="message">Mensagem</Tabs.Tab>
              {step.otherwise ? <Tabs.Tab value="otherwise">Senão</Tabs.Tab> : null}
            </Tabs.List>
            <Tabs.Panel value="message" pt="md">
              {messageEditor(step.message, 'message')}
            </Tabs.Panel>
            {step.otherwise ? (
              <Tabs.Panel value="otherwise" pt="md">
                {messageEditor(step.otherwise, 'otherwise')}
              </Tabs.Panel>
            ) : null}
          </Tabs>
        </Stack>
      ) : null}
    </Paper>
  );
}

/** A step opens when added and when its errors appear (after Seguir); stored steps start closed. */
function useOpen(initial: boolean, failing: boolean): [boolean, (open: boolean) => void] {
  const [open, setOpen] = useState(initial);
  useEffect(() => {
    if (failing) setOpen(true);
  }, [failing]);
  return [open, setOpen];
}
