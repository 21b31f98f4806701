import {
  DATE_OPERATOR_LABELS,
  FILTER_KEYS,
  type FilterOperator,
  filterKeyInfo,
  OPERATOR_LABELS,
  operatorsFor,
} from '@impeto/shared';
import {
  ActionIcon,
  Alert,
  Box,
  Button,
  Divider,
  Group,
  MultiSelect,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  Tooltip,
} from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useDebouncedValue } from '@mantine/hooks';
import { IconCalendar, IconPlus, IconTrash } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { usePersonFilters } from './api/list-person-filters.ts';
import { useFilterValues } from './api/search-filter-values.ts';
import { emptyCondition, type FieldErrors, type FilterConditionState, type FilterState } from './block-state.ts';

/** Two fixed positions: the first condition and the optional second. */
const CONDITION_KEYS = ['first', 'second'];

export const FILTERS_FAILED = 'Não foi possível listar os filtros disponíveis. Tente novamente mais tarde.';
/** The filter list came back empty (spec doc 2 §8: 'Filter or block list missing'). */
export const FILTERS_MISSING = 'Algo deu errado. Tente novamente mais tarde';

const operatorLabel = (key: string, op: FilterOperator) =>
  filterKeyInfo(key)?.mask === 'date'
    ? (DATE_OPERATOR_LABELS[op as keyof typeof DATE_OPERATOR_LABELS] ?? OPERATOR_LABELS[op])
    : OPERATOR_LABELS[op];

function SelectValues({
  domainUuid,
  filterKey,
  value,
  onChange,
  error,
  disabled,
}: {
  domainUuid: string;
  filterKey: string;
  value: string[];
  onChange: (v: string[]) => void;
  error?: string;
  disabled?: boolean;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const options = useFilterValues(domainUuid, filterKey, debounced, !disabled);
  const labels = useRef(new Map<string, string>());
  for (const o of options.data ?? []) labels.current.set(o.value, `${o.emoji ? `${o.emoji} ` : ''}${o.name}`);
  const data = [...new Set([...value, ...(options.data ?? []).map((o) => o.value)])].map((v) => ({
    value: v,
    label: labels.current.get(v) ?? v,
  }));
  return (
    <MultiSelect
      label="Valores"
      placeholder={value.length ? undefined : 'Busque e escolha'}
      data={data}
      value={value}
      onChange={onChange}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // The server already matched name, code and initials without case or accents ('sao' → São Paulo).
      filter={({ options }) => options}
      nothingFoundMessage={options.isFetching ? 'Buscando...' : 'Nenhum valor encontrado'}
      error={error}
      disabled={disabled}
      clearable
      hidePickedOptions
    />
  );
}

function ValuePicker({
  domainUuid,
  condition,
  regex,
  onChange,
  errors,
  index,
  disabled,
}: {
  domainUuid: string;
  condition: FilterConditionState;
  regex: boolean;
  onChange: (patch: Partial<FilterConditionState>) => void;
  errors: FieldErrors;
  index: number;
  disabled?: boolean;
}) {
  const mask = filterKeyInfo(condition.filter)?.mask;
  const error = errors[`${index}.value`];
  if (!mask || mask === 'none') return null;
  if (mask === 'boolean') {
    return (
      <Select
        label="Valor"
        placeholder="Escolha"
        data={['Sim', 'Não']}
        value={condition.value[0] ?? null}
        onChange={(v) => onChange({ value: v ? [v] : [] })}
        error={error}
        disabled={disabled}
      />
    );
  }
  if (mask === 'date') {
    const picker = (label: string, v: string, set: (v: string) => void, err?: string) => (
      <DatePickerInput
        label={label}
        placeholder="dd/mm/aaaa"
        valueFormat="DD/MM/YYYY"
        value={v || null}
        onChange={(d) => set(d ? String(d).slice(0, 10) : '')}
        leftSection={<IconCalendar size={16} />}
        error={err}
        disabled={disabled}
        clearable
      />
    );
    return condition.comparation === 'between' ? (
      <Group grow align="flex-start">
        {picker('De', condition.value[0] ?? '', (v) => onChange({ value: v ? [v] : [] }), error)}
        {picker('Até', condition.value2, (v) => onChange({ value2: v }), errors[`${index}.value2`])}
      </Group>
    ) : (
      picker('Data', condition.value[0] ?? '', (v) => onChange({ value: v ? [v] : [] }), error)
    );
  }
  if (mask === 'select' && !regex) {
    return (
      <SelectValues
        domainUuid={domainUuid}
        filterKey={condition.filter}
        value={condition.value}
        onChange={(value) => onChange({ value })}
        error={error}
        disabled={disabled}
      />
    );
  }
  return (
    <TagsInput
      label={regex ? 'Expressões regulares' : 'Valores'}
      description="Pressione Enter, Tab ou ; para adicionar"
      placeholder={condition.value.length ? undefined : regex ? 'Ex.: ^/produtos/.*' : 'Digite um valor'}
      value={condition.value}
      onChange={(value) => onChange({ value })}
      splitChars={[';']}
      acceptValueOnBlur
      error={error}
      disabled={disabled}
      clearable
    />
  );
}

export interface FilterEditorProps {
  domainUuid: string;
  value: FilterState;
  onChange: (value: FilterState) => void;
  errors?: FieldErrors;
  disabled?: boolean;
}

/** Audience filter: at most two conditions joined with E or OU (spec doc 2 §2.3, §3.2). */
export function FilterEditor({ domainUuid, value, onChange, errors = {}, disabled }: FilterEditorProps) {
  const filters = usePersonFilters(domainUuid);
  const missing = filters.isSuccess && filters.data.length === 0;
  // Only the server's list is offered; until it answers, the known keys keep an item's saved filter readable.
  const keys = filters.isSuccess || filters.isError ? (filters.data ?? []) : FILTER_KEYS;
  const setCondition = (i: number, patch: Partial<FilterConditionState>) =>
    onChange({ ...value, conditions: value.conditions.map((c, j) => (j === i ? { ...c, ...patch } : c)) });
  const hasAll = value.conditions.some((c) => c.filter === 'all');

  return (
    <Stack gap="md">
      <Switch
        label="Filtrar o público"
        description="Desligado, o envio considera todos os visitantes do domínio."
        checked={value.enabled}
        onChange={(e) =>
          onChange(
            e.currentTarget.checked
              ? { ...value, enabled: true }
              : { enabled: false, regex: false, conditions: [emptyCondition()] },
          )
        }
        disabled={disabled}
      />
      {filters.isError ? (
        <Alert color="red" variant="light">
          {FILTERS_FAILED}
        </Alert>
      ) : missing ? (
        <Alert color="red" variant="light">
          {FILTERS_MISSING}
        </Alert>
      ) : null}
      {value.enabled ? (
        <>
          {value.conditions.map((condition, i) => (
            <Box key={CONDITION_KEYS[i]}>
              {i === 1 ? (
                <Divider
                  my="xs"
                  labelPosition="center"
                  label={
                    <SegmentedControl
                      size="xs"
                      aria-label="Combinar condições"
                      value={condition.logical}
                      onChange={(v) => setCondition(1, { logical: v as 'and' | 'or' })}
                      data={[
                        { value: 'and', label: 'E' },
                        { value: 'or', label: 'OU' },
                      ]}
                      disabled={disabled}
                    />
                  }
                />
              ) : null}
              <Paper withBorder p="md" radius="md" bg="var(--mantine-color-gray-0)">
                <Group justify="space-between" mb="xs">
                  <Text size="xs" fw={700} c="dimmed" tt="uppercase">
                    Condição {i + 1}
                  </Text>
                  {i === 1 && !disabled ? (
                    <Tooltip label="Remover condição">
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label="Remover condição"
                        onClick={() => onChange({ ...value, conditions: value.conditions.slice(0, 1) })}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Tooltip>
                  ) : null}
                </Group>
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                  <Select
                    label="Filtro"
                    placeholder="Escolha um filtro"
                    searchable
                    data={[
                      ...keys,
                      ...FILTER_KEYS.filter((k) => k.key === condition.filter && !keys.some((o) => o.key === k.key)),
                    ]
                      .filter((k) => i === 0 || k.key !== 'all')
                      .map((k) => ({ value: k.key, label: k.name }))}
                    value={condition.filter || null}
                    onChange={(key) => setCondition(i, { filter: key ?? '', comparation: '', value: [], value2: '' })}
                    error={errors[`${i}.filter`]}
                    disabled={disabled}
                  />
                  {condition.filter && condition.filter !== 'all' ? (
                    <Select
                      label="Comparação"
                      placeholder="Escolha"
                      data={operatorsFor(condition.filter).map((op) => ({
                        value: op,
                        label: operatorLabel(condition.filter, op),
                      }))}
                      value={condition.comparation || null}
                      onChange={(op) => setCondition(i, { comparation: op ?? '', value2: '' })}
                      error={errors[`${i}.comparation`]}
                      disabled={disabled}
                    />
                  ) : null}
                </SimpleGrid>
                {condition.filter && condition.filter !== 'all' ? (
                  <Box mt="sm">
                    <ValuePicker
                      domainUuid={domainUuid}
                      condition={condition}
                      regex={value.regex}
                      index={i}
                      errors={errors}
                      onChange={(patch) => setCondition(i, patch)}
                      disabled={disabled}
                    />
                  </Box>
                ) : null}
              </Paper>
            </Box>
          ))}
          {errors._ || errors['1.logical'] ? (
            <Text size="sm" c="red">
              {errors._ ?? errors['1.logical']}
            </Text>
          ) : null}
          <Group justify="space-between">
            {value.conditions.length < 2 && !hasAll && !disabled ? (
              <Button
                variant="light"
                size="xs"
                leftSection={<IconPlus size={14} />}
                onClick={() => onChange({ ...value, conditions: [...value.conditions, emptyCondition()] })}
              >
                Adicionar condição
              </Button>
            ) : (
              <span />
            )}
            <Switch
              size="sm"
              label="Usar expressão regular"
              checked={value.regex}
              onChange={(e) => onChange({ ...value, regex: e.currentTarget.checked })}
              disabled={disabled}
            />
          </Group>
        </>
      ) : null}
    </Stack>
  );
}
