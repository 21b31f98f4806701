import {
  type Experiment,
  type ExperimentInput,
  experimentMessages as em,
  evenWeights,
  experimentSchema,
  MAX_CONTROL_PERCENT,
  MAX_WINNER_HOURS,
  MAX_WINNER_TEST_PERCENT,
  MIN_WINNER_TEST_PERCENT,
  VARIANT_NAMES,
  type WinnerMetric,
} from '@impeto/shared';
import {
  ActionIcon,
  Button,
  Group,
  Input,
  NumberInput,
  Paper,
  SegmentedControl,
  Stack,
  Switch,
  Tabs,
  Text,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { FieldErrors } from './block-state.ts';

/*
 * 'Teste A/B' (issue #25), shared by the v2 form and the diagram's channel block. Variant A is the block's own message
 * (the editor the page already shows); `others` are B, C, … as the same editor's state. An experiment with no
 * variants and no control group is no experiment: the body then carries no `experiment` key.
 */
export interface ExperimentState<V> {
  ab: boolean;
  /** 'Grupo de controle' in %, as typed (NumberInput gives '' when emptied). */
  control: number | string;
  /** Shares of A, B, … in %, as typed. */
  weights: (number | string)[];
  /** Variants B, C, … (A is the block's message). */
  others: V[];
  /** 'Enviar a vencedora ao restante' (campaigns): absent or off, every person gets their variant at once. */
  winner?: WinnerState;
}

/** Send the winner, as typed: test share (%), hours, metric. */
export interface WinnerState {
  on: boolean;
  percent: number | string;
  hours: number | string;
  metric: WinnerMetric;
}

export const defaultWinner = (): WinnerState => ({ on: false, percent: 20, hours: 4, metric: 'click_rate' });

export const emptyExperiment = <V,>(): ExperimentState<V> => ({ ab: false, control: 0, weights: [], others: [] });

/** The stored experiment as the editor's state; `fromValue` reads one dispatcher value into the editor's state. */
export function experimentFromItem<V>(
  experiment: Experiment | ExperimentInput | null | undefined,
  fromValue: (value: unknown) => V,
): ExperimentState<V> {
  if (!experiment) return emptyExperiment();
  const variants = experiment.variants ?? [];
  return {
    ab: variants.length >= 2,
    control: experiment.control_percent ?? 0,
    weights: variants.length >= 2 ? variants.map((v) => v.weight) : [],
    others: variants.length >= 2 ? variants.slice(1).map((v) => fromValue((v.values as unknown[])[0])) : [],
    ...(experiment.winner
      ? {
          winner: {
            on: true,
            percent: experiment.winner.test_percent,
            hours: experiment.winner.hours,
            metric: experiment.winner.metric,
          },
        }
      : {}),
  };
}

/** Whether the section changes anything (a control group or variants): without, the body has no `experiment`. */
export const experimentUsed = (s: ExperimentState<unknown>) => s.ab || Number(s.control) > 0;

/** The body's `experiment`, or undefined when the section is unused. `values` are the dispatcher values A, B, …. */
export function experimentBody(s: ExperimentState<unknown>, values: unknown[]): ExperimentInput | undefined {
  if (!experimentUsed(s)) return undefined;
  const control = s.control === '' ? 0 : Number(s.control);
  const winner = s.ab && s.winner?.on ? s.winner : null;
  return {
    control_percent: control,
    variants: s.ab
      ? values.map((v, i) => ({ name: VARIANT_NAMES[i] as 'A', weight: Number(s.weights[i]), values: [v] }))
      : [],
    ...(winner
      ? {
          winner: {
            test_percent: winner.percent === '' ? Number.NaN : Number(winner.percent),
            hours: winner.hours === '' ? Number.NaN : Number(winner.hours),
            metric: winner.metric,
          },
        }
      : {}),
  } as ExperimentInput;
}

/**
 * The shared schema's pt-BR errors, keyed 'control', 'weights' (the sum, the count), 'weight.<i>' and, for send the
 * winner, 'winner.test_percent', 'winner.hours', 'winner.metric'.
 */
export function checkExperiment(
  s: ExperimentState<unknown>,
  values: unknown[],
): { ok: true; experiment: Experiment | undefined } | { ok: false; errors: FieldErrors } {
  const body = experimentBody(s, values);
  if (!body) return { ok: true, experiment: undefined };
  const errors: FieldErrors = {};
  if (s.control === '' || s.control === undefined) errors.control = em.controlInvalid;
  s.weights.forEach((w, i) => {
    if (w === '') errors[`weight.${i}`] = em.weightInvalid;
  });
  const parsed = experimentSchema.safeParse(body);
  if (parsed.success && !Object.keys(errors).length) return { ok: true, experiment: parsed.data };
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const [head, i, field] = issue.path;
    // A variant's message is checked by its own editor (the tab shows its errors).
    const key =
      head === 'winner'
        ? `winner.${String(i ?? 'test_percent')}`
        : head === 'control_percent'
          ? 'control'
          : head === 'variants' && field === 'weight'
            ? `weight.${String(i)}`
            : head === 'variants' && field === 'values'
              ? null
              : 'weights';
    if (key) errors[key] ??= issue.message;
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, experiment: undefined };
}

export interface ExperimentEditorProps<V> {
  value: ExperimentState<V>;
  onChange: (value: ExperimentState<V>) => void;
  /** Variant A's message: a new variant starts as its copy. */
  variantA: V;
  errors?: FieldErrors;
  disabled?: boolean;
  /** A campaign: the variants may be tested on part of the audience first, the winner sent to the rest. */
  campaign?: boolean;
  /** No 'Grupo de controle' (a journey step: the momentum's control group holds people out of the whole journey). */
  noControl?: boolean;
}

/** The 'Teste A/B' controls: variants on or off, each one's share, send the winner (campaigns), 'Grupo de controle'. */
export function ExperimentEditor<V>({
  value,
  onChange,
  variantA,
  errors = {},
  disabled,
  campaign,
  noControl,
}: ExperimentEditorProps<V>) {
  const count = value.ab ? value.others.length + 1 : 0;
  const copy = () => structuredClone(variantA);
  const set = (patch: Partial<ExperimentState<V>>) => onChange({ ...value, ...patch });
  const total = value.weights.reduce<number>((sum, w) => sum + (Number(w) || 0), 0);
  return (
    <Stack gap="sm">
      <Switch
        label="Testar variantes da mensagem"
        description="Divide quem se qualifica entre 2 a 5 versões da mensagem (A, B, C…) e mostra qual vende mais."
        checked={value.ab}
        disabled={disabled}
        onChange={(e) =>
          e.currentTarget.checked
            ? set({ ab: true, others: [copy()], weights: evenWeights(2) })
            : set({ ab: false, others: [], weights: [] })
        }
      />
      {value.ab ? (
        <Paper withBorder p="sm" radius="md" component="fieldset" aria-label="Variantes" style={{ margin: 0 }}>
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              Edite cada variante na aba dela, na mensagem acima. Parcelas iguais por padrão; a soma deve ser 100 %.
            </Text>
            {Array.from({ length: count }, (_, i) => VARIANT_NAMES[i] as string).map((name, i) => (
              <Group key={name} align="flex-end" gap="xs" wrap="nowrap">
                <NumberInput
                  label={`Parcela da variante ${name}`}
                  suffix=" %"
                  min={1}
                  max={99}
                  allowDecimal={false}
                  allowNegative={false}
                  clampBehavior="none"
                  value={value.weights[i] ?? ''}
                  onChange={(w) => set({ weights: value.weights.map((x, j) => (j === i ? w : x)) })}
                  error={errors[`weight.${i}`]}
                  disabled={disabled}
                  w={200}
                />
                {i > 0 && count > 2 ? (
                  <ActionIcon
                    mb={4}
                    variant="subtle"
                    color="red"
                    aria-label={`Remover variante ${name}`}
                    disabled={disabled}
                    onClick={() =>
                      set({ others: value.others.filter((_, j) => j !== i - 1), weights: evenWeights(count - 1) })
                    }
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                ) : null}
              </Group>
            ))}
            <Group justify="space-between" align="center">
              <Text size="sm" c={total === 100 ? 'dimmed' : 'red'} aria-live="polite">
                Total: {total} %
              </Text>
              <Button
                size="xs"
                variant="light"
                leftSection={<IconPlus size={14} />}
                disabled={disabled || count >= VARIANT_NAMES.length}
                onClick={() => set({ others: [...value.others, copy()], weights: evenWeights(count + 1) })}
              >
                Adicionar variante
              </Button>
            </Group>
            {errors.weights ? (
              <Text size="sm" c="red" role="alert">
                {errors.weights}
              </Text>
            ) : null}
          </Stack>
        </Paper>
      ) : null}
      {value.ab && campaign ? (
        <WinnerEditor
          value={value.winner ?? defaultWinner()}
          onChange={(winner) => set({ winner })}
          errors={errors}
          disabled={disabled}
        />
      ) : null}
      {noControl ? null : (
        <NumberInput
          label="Grupo de controle"
          description="Parte de quem se qualifica que não recebe nada, para medir quanto a mensagem vende a mais. De 0 a 50 %."
          suffix=" %"
          min={0}
          max={MAX_CONTROL_PERCENT}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="none"
          value={value.control}
          onChange={(control) => set({ control })}
          error={errors.control}
          disabled={disabled}
          styles={{ wrapper: { maxWidth: 200 } }}
        />
      )}
    </Stack>
  );
}

/** One tab per variant above the message editor (its preview follows the chosen variant). */
export function VariantTabs({
  count,
  active,
  onChange,
  invalid = [],
}: {
  count: number;
  active: number;
  onChange: (index: number) => void;
  /** Variants whose message has errors (marked on their tab). */
  invalid?: boolean[];
}) {
  if (count < 2) return null;
  return (
    <Tabs value={String(active)} onChange={(v) => onChange(Number(v ?? 0))} variant="outline">
      {/* One line that scrolls sideways on a phone (five tabs do not fit 390 px). */}
      <Tabs.List
        aria-label="Variantes da mensagem"
        style={{ flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden' }}
      >
        {Array.from({ length: count }, (_, i) => (
          <Tabs.Tab key={VARIANT_NAMES[i]} value={String(i)} c={invalid[i] ? 'red' : undefined}>
            {`Variante ${VARIANT_NAMES[i]}`}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}

const METRIC_OPTIONS: { value: WinnerMetric; label: string }[] = [
  { value: 'click_rate', label: 'Taxa de cliques' },
  { value: 'conversion_rate', label: 'Taxa de conversão' },
];

/** 'Enviar a vencedora ao restante': test share, hours, and the metric that picks the winner. */
function WinnerEditor({
  value,
  onChange,
  errors,
  disabled,
}: {
  value: WinnerState;
  onChange: (value: WinnerState) => void;
  errors: FieldErrors;
  disabled?: boolean;
}) {
  const set = (patch: Partial<WinnerState>) => onChange({ ...value, ...patch });
  return (
    <Stack gap="xs">
      <Switch
        label="Enviar a vencedora ao restante"
        description="Envia as variantes a uma parte do público e, depois do tempo de teste, a que tiver a melhor taxa vai para todos os outros."
        checked={value.on}
        disabled={disabled}
        onChange={(e) => set({ on: e.currentTarget.checked })}
      />
      {value.on ? (
        <Paper withBorder p="sm" radius="md" component="fieldset" aria-label="Enviar a vencedora" style={{ margin: 0 }}>
          <Stack gap="xs">
            <Group align="flex-start" gap="sm">
              <NumberInput
                label="Testar em"
                description={`De ${MIN_WINNER_TEST_PERCENT} a ${MAX_WINNER_TEST_PERCENT} % do público.`}
                suffix=" % do público"
                min={MIN_WINNER_TEST_PERCENT}
                max={MAX_WINNER_TEST_PERCENT}
                allowDecimal={false}
                allowNegative={false}
                clampBehavior="none"
                value={value.percent}
                onChange={(percent) => set({ percent })}
                error={errors['winner.test_percent']}
                disabled={disabled}
                w={200}
              />
              <NumberInput
                label="por"
                description={`De 1 a ${MAX_WINNER_HOURS} horas.`}
                suffix=" horas"
                min={1}
                max={MAX_WINNER_HOURS}
                allowDecimal={false}
                allowNegative={false}
                clampBehavior="none"
                value={value.hours}
                onChange={(hours) => set({ hours })}
                error={errors['winner.hours']}
                disabled={disabled}
                w={160}
              />
            </Group>
            <Input.Wrapper label="Vencedora por" error={errors['winner.metric']}>
              <div>
                <SegmentedControl
                  aria-label="Vencedora por"
                  data={METRIC_OPTIONS}
                  value={value.metric}
                  onChange={(metric) => set({ metric: metric as WinnerMetric })}
                  disabled={disabled}
                />
              </div>
            </Input.Wrapper>
          </Stack>
        </Paper>
      ) : null}
    </Stack>
  );
}
