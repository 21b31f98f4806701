import { MAX_JOURNEY_STEPS } from '@impeto/shared';
import {
  checkCondition,
  checkExperiment,
  checkWait,
  type FieldErrors,
  newStep,
  type StepState,
  stepFromWire,
  stepInput,
} from '../blocks/index.ts';
import type { ExperimentErrors } from './components/channel-variants.tsx';
import {
  type ChannelFormState,
  channelFromBlock,
  channelInput,
  checkBlock,
  emptyChannelForm,
} from './diagram-state.ts';
import { type DraftStep, stepNodeId } from './graph.ts';

/*
 * The diagram's journey (issue #26): `steps` beside the blocks, each message edited with the channel block's own
 * form. A step's message carries only its channel type on the wire; the editor finds the domain's channel of that
 * type, as it does for items created through the API.
 */

export type DiagramStep = StepState<ChannelFormState>;
export { MAX_JOURNEY_STEPS };

export const stepMessageValue = (m: ChannelFormState) => (channelInput(m).values as unknown[])[0];
export const stepMessageFrom = (value: unknown) =>
  channelFromBlock({ type: 'dispatcher', values: [(value ?? {}) as Record<string, unknown>] }, null);

export const stepsFromItem = (steps: readonly unknown[] | null | undefined): DiagramStep[] =>
  (steps ?? []).map((s) => stepFromWire(s, stepMessageFrom));

/** The step's variants B, C, … on its message's channel (the panel edits only their content). */
const variantOthers = (s: DiagramStep): ChannelFormState[] =>
  s.experiment?.ab
    ? s.experiment.others.map((o) => ({
        ...o,
        channel_uuid: s.message.channel_uuid,
        channel_type: s.message.channel_type,
      }))
    : [];

export const stepsToDraft = (steps: readonly DiagramStep[]): DraftStep[] =>
  steps.map(
    (s) =>
      stepInput(
        s.experiment?.ab ? { ...s, experiment: { ...s.experiment, others: variantOthers(s) } } : s,
        stepMessageValue,
      ) as unknown as DraftStep,
  );

/**
 * A step's 'Teste A/B' errors as the channel block's section reads them: the shares (the shared schema, no control
 * group) and each variant B, C, …'s message. Null when it is off or complete.
 */
export function stepExperimentErrors(s: DiagramStep): ExperimentErrors | null {
  if (!s.experiment?.ab) return null;
  const others = variantOthers(s);
  const variants = others.map((o) => messageErrors(o) ?? undefined);
  const x = checkExperiment({ ...s.experiment, control: 0 }, [s.message, ...others].map(stepMessageValue));
  const errors: ExperimentErrors = {
    ...(variants.some(Boolean) ? { variants } : {}),
    ...(x.ok ? {} : { experiment: x.errors }),
  };
  return Object.keys(errors).length ? errors : null;
}

/** A new step: 1 day, 'Não converteu', a message on the channel of the previous one (its content empty). */
export function newDiagramStep(previous: ChannelFormState | undefined): DiagramStep {
  const message = emptyChannelForm();
  if (previous) {
    message.channel_uuid = previous.channel_uuid;
    message.channel_type = previous.channel_type;
  }
  return newStep(message);
}

type Channel = { uuid: string; channel_type: string; active?: boolean };

function resolveMessage(m: ChannelFormState, channels: readonly Channel[]): ChannelFormState {
  if (m.channel_uuid || !m.channel_type) return m;
  const match = channels.find((c) => c.channel_type === m.channel_type && c.active !== false);
  return match ? { ...m, channel_uuid: match.uuid } : m;
}

/** Each message's channel_uuid from the domain's channel of its type, when the stored step named only the type. */
export function resolveStepChannels(steps: DiagramStep[], channels: readonly Channel[] | undefined): DiagramStep[] {
  if (!channels) return steps;
  return steps.map((s) => ({
    ...s,
    message: resolveMessage(s.message, channels),
    otherwise: s.otherwise ? resolveMessage(s.otherwise, channels) : null,
  }));
}

const messageErrors = (m: ChannelFormState) => {
  const check = checkBlock(channelInput(m), { channelUuid: m.channel_uuid });
  return check.ok ? null : check.errors;
};

/** The failing parts of the steps by node id ('step-1-wait', 'step-2-otherwise', …), as the editors read them. */
export function checkSteps(steps: readonly DiagramStep[]): Map<string, FieldErrors> {
  const out = new Map<string, FieldErrors>();
  steps.forEach((s, i) => {
    const n = i + 1;
    const wait = checkWait(s.wait);
    if (Object.keys(wait).length) out.set(stepNodeId(n, 'wait'), wait);
    const condition = checkCondition(s.condition);
    if (Object.keys(condition).length) out.set(stepNodeId(n, 'condition'), condition);
    const message = messageErrors(s.message);
    const ab = stepExperimentErrors(s);
    if (message || ab)
      out.set(stepNodeId(n, 'message'), {
        ...message,
        ...(ab ? { variants: 'Complete o teste A/B da mensagem.' } : {}),
      });
    const otherwise = s.otherwise ? messageErrors(s.otherwise) : null;
    if (otherwise) out.set(stepNodeId(n, 'otherwise'), otherwise);
  });
  return out;
}

const PART_NAMES = {
  wait: 'a espera',
  condition: 'a condição',
  message: 'a mensagem',
  otherwise: 'a mensagem do senão',
};

/** 'A etapa 2 está incompleta: falta a condição. Complete-a ou remova-a para salvar.' */
export function incompleteStepMessage(nodeId: string): string {
  const match = /^step-(\d+)-(wait|condition|message|otherwise)$/.exec(nodeId);
  if (!match) return 'Complete as etapas da jornada para salvar.';
  const part = PART_NAMES[match[2] as keyof typeof PART_NAMES];
  return `A etapa ${match[1]} da jornada está incompleta: falta ${part}. Complete-a ou remova-a para salvar.`;
}
