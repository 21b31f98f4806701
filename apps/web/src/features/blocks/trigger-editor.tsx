import { filterMessages, formatInterval, OPERATOR_LABELS, toPageUrl, WEEKDAYS } from '@impeto/shared';
import { Alert, Group, Paper, Select, SimpleGrid, Stack, Switch, TagsInput, Text } from '@mantine/core';
import { useState } from 'react';
import { useEventCategories } from './api/list-event-categories.ts';
import { useEventKeys } from './api/list-event-keys.ts';
import { useEventValues } from './api/list-event-values.ts';
import { emptyTrigger, type FieldErrors, type TriggerState, type TriggerType } from './block-state.ts';
import { IntervalInput } from './interval-input.tsx';

export const TRIGGER_LABELS: Record<TriggerType, string> = {
  pageview: 'Visualização de página',
  events: 'Evento',
  abandon: 'Abandono',
  recurrence: 'Recorrência',
};
export const RECURRENCE_LABELS = { monthly: 'Mensal', weekly: 'Semanal', daily: 'Diário' } as const;
export const WEEKDAY_LABELS = [
  'Domingo',
  'Segunda-feira',
  'Terça-feira',
  'Quarta-feira',
  'Quinta-feira',
  'Sexta-feira',
  'Sábado',
];
export const MONTH_LABELS = [
  'Janeiro',
  'Fevereiro',
  'Março',
  'Abril',
  'Maio',
  'Junho',
  'Julho',
  'Agosto',
  'Setembro',
  'Outubro',
  'Novembro',
  'Dezembro',
];
const URL_OPERATORS = ['==', '!=', 'contain', 'notcontain'] as const;
const HOUR_OPTIONS = Array.from({ length: 96 }, (_, i) => {
  const minutes = i * 15;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
});

export const EVENT_CATEGORIES_FAILED =
  'Ocorreu um erro ao listar as categorias disponíveis. Tente novamente mais tarde.';
export const EVENT_KEYS_FAILED = 'Ocorreu um erro ao listar as chaves disponíveis. Tente novamente mais tarde.';
export const EVENT_VALUES_FAILED = 'Ocorreu um erro ao listar os valores disponíveis. Tente novamente mais tarde.';

const ADD_HINT = 'Pressione Enter, Tab ou ; para adicionar';
const ADD_HINT_COMMA = 'Pressione Enter, Tab, ; ou vírgula para adicionar';

const quoted = (values: unknown[]) => values.map((v) => `“${String(v)}”`).join(' ou ');

/**
 * Who an abandon trigger sends to, in words (issue #29): those who visited the pages of interest and did NOT reach
 * a conversion page before the send; whoever reaches one is left out (the engine cancels their delivery).
 */
export function abandonAudience(t: {
  value?: unknown[];
  comparation2?: unknown;
  value2?: unknown[];
  dischargeIn?: unknown[];
}) {
  const pages = t.value?.length ? `uma página que contém ${quoted(t.value)}` : 'uma das páginas de interesse';
  const goal = t.value2?.length
    ? `uma página que ${t.comparation2 === 'notcontain' ? 'não contém' : 'contém'} ${quoted(t.value2)}`
    : 'uma página de conversão';
  const delay = Number(t.dischargeIn?.[0] ?? 0);
  const until = delay > 0 ? `em até ${formatInterval(delay)} (Disparar após)` : 'até a hora do envio';
  return `A mensagem vai para quem visitou ${pages} e, ${until}, não chegou a ${goal}. Quem chegar a ela não recebe.`;
}

/** Values pasted as 'a, b' are separate values; a regular expression keeps its commas ({2,4}). */
export const splitValues = (list: string[]) =>
  [...new Set(list.flatMap((v) => v.split(',')).map((v) => v.trim()))].filter((v) => v !== '');

/** 'Informe uma URL válida. (Ex.: loja.com.br)' with the selected domain's host (spec doc 2 §5). */
export const urlHint = (host: string) => `Informe uma URL válida. (Ex.: ${host || 'www.seusite.com.br'})`;

function UrlValues({
  label,
  value,
  onChange,
  withScheme,
  host,
  error,
  disabled,
  data,
  splitOnComma = false,
}: {
  label: string;
  value: string[];
  onChange: (v: string[]) => void;
  /** ==/!= pageview rules compare whole URLs: https:// is added and each value must be a URL. */
  withScheme: boolean;
  host: string;
  error?: string;
  disabled?: boolean;
  data?: string[];
  /** 'a, b' becomes two values (spec doc 2 §3.1: page and event values are split on commas). */
  splitOnComma?: boolean;
}) {
  const [search, setSearch] = useState('');
  const [hint, setHint] = useState<string | null>(null);
  const commit = (typed: string[]) => {
    const next = splitOnComma ? splitValues(typed) : typed;
    if (!withScheme) {
      setHint(null);
      onChange(next);
      return;
    }
    const urls = next.map((v) => toPageUrl(v.trim()));
    const bad = next.find((_, i) => urls[i] === null);
    if (bad !== undefined) {
      setHint(urlHint(host));
      queueMicrotask(() => setSearch(bad));
      return;
    }
    setHint(null);
    onChange(urls as string[]);
  };
  const shown = error === filterMessages.urlInvalid ? urlHint(host) : error;
  return (
    <TagsInput
      label={label}
      description={withScheme ? urlHint(host) : splitOnComma ? ADD_HINT_COMMA : ADD_HINT}
      placeholder={value.length ? undefined : withScheme ? `https://${host || 'www.seusite.com.br'}/` : '/produtos'}
      value={value}
      onChange={commit}
      searchValue={search}
      onSearchChange={(s) => {
        setSearch(s);
        if (hint && s === '') setHint(null);
      }}
      splitChars={splitOnComma ? [';', ','] : [';']}
      acceptValueOnBlur
      error={hint ?? shown}
      disabled={disabled}
      data={data}
      clearable
    />
  );
}

export interface TriggerEditorProps {
  domainUuid: string;
  /** Host of the selected domain, for the URL hint. */
  host: string;
  value: TriggerState;
  onChange: (value: TriggerState) => void;
  errors?: FieldErrors;
  disabled?: boolean;
  /** The trigger types offered (all by default; the GCD manager offers the ones the tag evaluates in the page). */
  types?: readonly TriggerType[];
}

/** Trigger: page view, event, abandon or recurrence, and the delay 'Disparar após' (spec doc 2 §3.3). */
export function TriggerEditor({
  domainUuid,
  host,
  value,
  onChange,
  errors = {},
  disabled,
  types = Object.keys(TRIGGER_LABELS) as TriggerType[],
}: TriggerEditorProps) {
  const set = (patch: Partial<TriggerState>) => onChange({ ...value, ...patch });
  const isEvents = value.filter === 'events';
  const categories = useEventCategories(domainUuid, isEvents);
  const categoryUuid = categories.data?.find((c) => c.parent_category === value.parentCategory)?.uuid;
  const keys = useEventKeys(isEvents ? categoryUuid : undefined);
  const values = useEventValues(isEvents ? categoryUuid : undefined, isEvents ? value.key || undefined : undefined);
  const comparationData = URL_OPERATORS.map((op) => ({ value: op, label: OPERATOR_LABELS[op] }));
  const regexAllowed = value.filter && value.filter !== 'recurrence';
  const [month = '', day = ''] = value.comparation === 'monthly' ? (value.value[0] ?? '').split('-') : [];

  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Select
          label="Tipo de gatilho"
          placeholder="Escolha um gatilho"
          data={types.map((v) => ({ value: v, label: TRIGGER_LABELS[v] }))}
          value={value.filter || null}
          onChange={(filter) =>
            onChange({
              ...emptyTrigger(),
              filter: (filter as TriggerType) ?? '',
              comparation: filter === 'abandon' ? 'contain' : '',
              dischargeIn: value.dischargeIn,
            })
          }
          error={errors.filter ?? errors._}
          disabled={disabled}
        />
        {value.filter === 'pageview' ? (
          <Select
            label="Comparação"
            placeholder="Escolha"
            data={comparationData}
            value={value.comparation || null}
            onChange={(c) => set({ comparation: c ?? '', value: [] })}
            error={errors.comparation}
            disabled={disabled}
          />
        ) : null}
        {value.filter === 'recurrence' ? (
          <Select
            label="Período da Recorrência"
            placeholder="Escolha"
            data={Object.entries(RECURRENCE_LABELS).map(([v, label]) => ({ value: v, label }))}
            value={value.comparation || null}
            onChange={(c) => set({ comparation: c ?? '', value: [] })}
            error={errors.comparation}
            disabled={disabled}
          />
        ) : null}
      </SimpleGrid>

      {value.filter === 'pageview' && value.comparation ? (
        <UrlValues
          label="Páginas"
          value={value.value}
          onChange={(v) => set({ value: v })}
          withScheme={!value.regex && (value.comparation === '==' || value.comparation === '!=')}
          splitOnComma={!value.regex}
          host={host}
          error={errors.value}
          disabled={disabled}
        />
      ) : null}

      {isEvents ? (
        <>
          {categories.isError ? <Alert color="red">{EVENT_CATEGORIES_FAILED}</Alert> : null}
          {keys.isError ? <Alert color="red">{EVENT_KEYS_FAILED}</Alert> : null}
          {values.isError ? <Alert color="red">{EVENT_VALUES_FAILED}</Alert> : null}
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <Select
              label="Categoria"
              placeholder={categories.isPending ? 'Carregando...' : 'Escolha'}
              data={[
                ...new Set([
                  ...(categories.data ?? []).map((c) => c.parent_category),
                  ...(value.parentCategory ? [value.parentCategory] : []),
                ]),
              ]}
              searchable
              value={value.parentCategory || null}
              onChange={(c) => set({ parentCategory: c ?? '', key: '', value: [], comparation: '', comparation2: '' })}
              nothingFoundMessage="Nenhuma categoria registrada"
              error={errors.parentCategory}
              disabled={disabled}
            />
            <Select
              label="Chave"
              placeholder="Opcional"
              data={[...new Set([...(keys.data ?? []).map((k) => k.key), ...(value.key ? [value.key] : [])])]}
              searchable
              clearable
              value={value.key || null}
              onChange={(k) => set({ key: k ?? '', value: [] })}
              error={errors.key}
              disabled={disabled || !value.parentCategory}
            />
            <Select
              label="Comparação"
              placeholder="Escolha"
              data={comparationData}
              clearable
              value={value.comparation || null}
              onChange={(c) => set({ comparation: c ?? '' })}
              error={errors.comparation}
              disabled={disabled || !value.key}
            />
          </SimpleGrid>
          {value.key ? (
            <TagsInput
              label="Valores"
              description={value.regex ? ADD_HINT : ADD_HINT_COMMA}
              data={(values.data ?? []).map((v) => v.value)}
              value={value.value}
              onChange={(v) => set({ value: value.regex ? v : splitValues(v) })}
              splitChars={value.regex ? [';'] : [';', ',']}
              acceptValueOnBlur
              error={errors.value}
              disabled={disabled}
              clearable
            />
          ) : null}
          {value.parentCategory ? (
            <Paper withBorder p="sm" radius="md" bg="var(--mantine-color-gray-0)">
              <Text size="xs" fw={700} c="dimmed" tt="uppercase" mb={6}>
                Segunda condição (opcional)
              </Text>
              <Text size="xs" c="dimmed" mb="xs">
                Dispara também com eventos de outra categoria
                {value.key ? ', comparando a mesma chave e os mesmos valores.' : '.'}
              </Text>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                <Select
                  label="Segunda categoria"
                  placeholder="Nenhuma"
                  data={(categories.data ?? [])
                    .map((c) => c.parent_category)
                    .filter((c) => c !== value.parentCategory)
                    .concat(
                      value.parentCategory2 &&
                        !(categories.data ?? []).some((c) => c.parent_category === value.parentCategory2)
                        ? [value.parentCategory2]
                        : [],
                    )}
                  searchable
                  clearable
                  value={value.parentCategory2 || null}
                  onChange={(c) => set({ parentCategory2: c ?? '', comparation2: c ? value.comparation2 : '' })}
                  nothingFoundMessage="Nenhuma outra categoria registrada"
                  error={errors.parentCategory2}
                  disabled={disabled}
                />
                <Select
                  label="Comparação da segunda condição"
                  placeholder="Escolha"
                  data={comparationData}
                  clearable
                  value={value.comparation2 || null}
                  onChange={(c) => set({ comparation2: c ?? '' })}
                  error={errors.comparation2}
                  disabled={disabled || !value.parentCategory2 || !value.key}
                />
              </SimpleGrid>
            </Paper>
          ) : null}
        </>
      ) : null}

      {value.filter === 'abandon' ? (
        <Stack gap="sm">
          <Paper withBorder p="sm" radius="md" bg="var(--mantine-color-gray-0)">
            <Text size="xs" fw={700} c="dimmed" tt="uppercase" mb={6}>
              Visitou páginas que contêm
            </Text>
            <UrlValues
              label="Páginas de interesse"
              value={value.value}
              onChange={(v) => set({ value: v, comparation: 'contain' })}
              withScheme={false}
              host={host}
              error={errors.value ?? errors.comparation}
              disabled={disabled}
            />
          </Paper>
          <Paper withBorder p="sm" radius="md" bg="var(--mantine-color-gray-0)">
            <Group grow align="flex-start">
              <Select
                label="Página de conversão (quem chega não recebe)"
                placeholder="Escolha"
                data={[
                  { value: 'contain', label: OPERATOR_LABELS.contain },
                  { value: 'notcontain', label: OPERATOR_LABELS.notcontain },
                ]}
                value={value.comparation2 || null}
                onChange={(c) => set({ comparation2: c ?? '' })}
                error={errors.comparation2}
                disabled={disabled}
              />
              <UrlValues
                label="Páginas de conversão"
                value={value.value2}
                onChange={(v) => set({ value2: v })}
                withScheme={false}
                host={host}
                error={errors.value2}
                disabled={disabled}
              />
            </Group>
          </Paper>
          <Alert color="blue" variant="light" p="sm" role="note" aria-label="Quem recebe">
            <Text size="sm">{abandonAudience(value)}</Text>
          </Alert>
        </Stack>
      ) : null}

      {value.filter === 'recurrence' && value.comparation ? (
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          {value.comparation === 'monthly' ? (
            <>
              <Select
                label="Mês"
                placeholder="Escolha"
                data={MONTH_LABELS.map((label, i) => ({ value: String(i + 1).padStart(2, '0'), label }))}
                value={month || null}
                onChange={(m) => set({ value: [`${m ?? ''}-${day}`] })}
                error={errors.value}
                disabled={disabled}
              />
              <Select
                label="Dia"
                placeholder="1 a 31"
                data={Array.from({ length: 31 }, (_, i) => String(i + 1).padStart(2, '0'))}
                value={day || null}
                onChange={(d) => set({ value: [`${month}-${d ?? ''}`] })}
                disabled={disabled}
              />
            </>
          ) : null}
          {value.comparation === 'weekly' ? (
            <Select
              label="Dia da semana"
              placeholder="Escolha"
              data={WEEKDAYS.map((w, i) => ({ value: w, label: WEEKDAY_LABELS[i] ?? w }))}
              value={value.value[0] ?? null}
              onChange={(w) => set({ value: w ? [w] : [] })}
              error={errors.value}
              disabled={disabled}
            />
          ) : null}
          <Select
            label="Horário"
            placeholder="HH:mm"
            data={HOUR_OPTIONS}
            searchable
            value={value.hours || null}
            onChange={(h) => set({ hours: h ?? '' })}
            error={errors.hours}
            disabled={disabled}
          />
        </SimpleGrid>
      ) : null}

      {value.filter ? (
        <Group align="flex-end" grow wrap="wrap">
          <IntervalInput
            label="Disparar após"
            value={value.dischargeIn}
            onChange={(dischargeIn) => set({ dischargeIn })}
            maxTags={1}
            error={errors.dischargeIn}
            disabled={disabled}
          />
        </Group>
      ) : null}
      {regexAllowed ? (
        <Switch
          size="sm"
          label="Usar expressão regular"
          checked={value.regex}
          onChange={(e) => set({ regex: e.currentTarget.checked })}
          disabled={disabled}
        />
      ) : null}
    </Stack>
  );
}
