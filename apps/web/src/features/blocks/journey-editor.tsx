import {
  CONDITION_KINDS,
  CONDITION_LABELS,
  type ConditionKind,
  OPERATOR_LABELS,
  PAGE_COMPARISONS,
  WAIT_UNIT_LABELS,
  WAIT_UNITS,
  type WaitUnit,
} from '@impeto/shared';
import {
  Checkbox,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import type { FieldErrors } from './block-state.ts';
import { FilterEditor } from './filter-editor.tsx';
import type { ConditionState, ExitState, WaitState } from './journey-state.ts';

const TAG_HINT = 'Pressione Enter para adicionar';
const comparisonData = PAGE_COMPARISONS.map((op) => ({ value: op, label: OPERATOR_LABELS[op] }));

/** 'Esperar': an amount of minutes, hours or days, optionally counted in the momentum's worktime. */
export function WaitEditor({
  value,
  onChange,
  errors = {},
  disabled,
}: {
  value: WaitState;
  onChange: (value: WaitState) => void;
  errors?: FieldErrors;
  disabled?: boolean;
}) {
  const plural = Number(value.amount) !== 1;
  return (
    <Stack gap="xs">
      <Group gap="sm" align="flex-start" grow>
        <NumberInput
          label="Esperar"
          min={1}
          allowDecimal={false}
          value={value.amount}
          onChange={(amount) => onChange({ ...value, amount })}
          error={errors.amount ?? errors._}
          disabled={disabled}
        />
        <Select
          label="Unidade"
          data={WAIT_UNITS.map((u) => ({
            value: u,
            label: plural ? WAIT_UNIT_LABELS[u].many : WAIT_UNIT_LABELS[u].one,
          }))}
          value={value.unit}
          onChange={(unit) => unit && onChange({ ...value, unit: unit as WaitUnit })}
          allowDeselect={false}
          error={errors.unit}
          disabled={disabled}
        />
      </Group>
      <Checkbox
        label="Contar só no horário de funcionamento"
        description="Uma espera que termina fora do horário do momentum passa para a próxima abertura."
        checked={value.worktime}
        onChange={(e) => onChange({ ...value, worktime: e.currentTarget.checked })}
        disabled={disabled}
      />
    </Stack>
  );
}

/** The step's condition, read on what the person did since the previous step. */
export function ConditionEditor({
  domainUuid,
  value,
  onChange,
  errors = {},
  disabled,
}: {
  domainUuid: string;
  value: ConditionState;
  onChange: (value: ConditionState) => void;
  errors?: FieldErrors;
  disabled?: boolean;
}) {
  const set = (patch: Partial<ConditionState>) => onChange({ ...value, ...patch });
  const isPage = value.kind === 'viewed_page' || value.kind === 'not_viewed_page';
  const isEvent = value.kind === 'event' || value.kind === 'no_event';
  return (
    <Stack gap="sm">
      <Select
        label="Condição"
        description="Lida sobre o que a pessoa fez desde a etapa anterior."
        data={CONDITION_KINDS.map((kind) => ({ value: kind, label: CONDITION_LABELS[kind] }))}
        value={value.kind}
        onChange={(kind) =>
          kind &&
          set({
            kind: kind as ConditionKind,
            comparation: kind === 'event' || kind === 'no_event' ? '==' : 'contain',
            value: [],
          })
        }
        allowDeselect={false}
        disabled={disabled}
      />
      {isPage ? (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Select
            label="Comparação"
            data={comparisonData}
            value={value.comparation || 'contain'}
            onChange={(comparation) => comparation && set({ comparation })}
            allowDeselect={false}
            error={errors.comparation}
            disabled={disabled}
          />
          <TagsInput
            label="Páginas"
            description={TAG_HINT}
            placeholder={value.value.length ? undefined : '/carrinho'}
            value={value.value}
            onChange={(v) => set({ value: v })}
            error={errors.value ?? Object.entries(errors).find(([k]) => k.startsWith('value.'))?.[1]}
            disabled={disabled}
          />
        </SimpleGrid>
      ) : null}
      {isEvent ? (
        <Stack gap="sm">
          <TextInput
            label="Categoria do evento"
            placeholder="compra"
            value={value.category}
            onChange={(e) => set({ category: e.currentTarget.value })}
            error={errors.category}
            disabled={disabled}
          />
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <TextInput
              label="Propriedade (opcional)"
              placeholder="produto"
              value={value.key}
              onChange={(e) => set({ key: e.currentTarget.value })}
              error={errors.key}
              disabled={disabled}
            />
            <Select
              label="Comparação"
              data={comparisonData}
              value={value.comparation || '=='}
              onChange={(comparation) => comparation && set({ comparation })}
              allowDeselect={false}
              disabled={disabled || !value.key.trim()}
            />
            <TagsInput
              label="Valores"
              description={TAG_HINT}
              value={value.value}
              onChange={(v) => set({ value: v })}
              disabled={disabled || !value.key.trim()}
            />
          </SimpleGrid>
        </Stack>
      ) : null}
      {value.kind === 'filter' ? (
        <FilterEditor
          domainUuid={domainUuid}
          value={value.filter}
          onChange={(filter) => set({ filter: { ...filter, enabled: true } })}
          errors={errors}
          disabled={disabled}
        />
      ) : null}
    </Stack>
  );
}

/** 'Sair da jornada quando': converted (on by default), opted out of the step's channel, matches a filter. */
export function ExitEditor({
  domainUuid,
  value,
  onChange,
  errors = {},
  disabled,
}: {
  domainUuid: string;
  value: ExitState;
  onChange: (value: ExitState) => void;
  errors?: FieldErrors;
  disabled?: boolean;
}) {
  return (
    <Paper withBorder radius="md" p="sm">
      <Stack gap="xs">
        <Text fw={600} size="sm">
          Sair da jornada quando
        </Text>
        <Checkbox
          label="Converteu"
          description="Quem compra sai da jornada na hora e não recebe as próximas etapas."
          checked={value.on_conversion}
          onChange={(e) => onChange({ ...value, on_conversion: e.currentTarget.checked })}
          disabled={disabled}
        />
        <Checkbox
          label="Descadastrou-se do canal"
          checked={value.on_opt_out}
          onChange={(e) => onChange({ ...value, on_opt_out: e.currentTarget.checked })}
          disabled={disabled}
        />
        <Checkbox
          label="Atende a um filtro"
          checked={value.filter.enabled}
          onChange={(e) => onChange({ ...value, filter: { ...value.filter, enabled: e.currentTarget.checked } })}
          disabled={disabled}
        />
        {value.filter.enabled ? (
          <FilterEditor
            domainUuid={domainUuid}
            value={value.filter}
            onChange={(filter) => onChange({ ...value, filter })}
            errors={errors}
            disabled={disabled}
          />
        ) : null}
      </Stack>
    </Paper>
  );
}
