import { Group, Loader, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconUsers } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { errorMessage } from '../../lib/api.ts';
import { formatCount } from '../../lib/format.ts';
import { calculateImpact, type Impact } from './api/calculate-impact.ts';
import { checkFilter, type FilterState } from './block-state.ts';

const share = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 });

/** Quiet time after the last change before the estimate is asked again. */
export const AUDIENCE_DEBOUNCE_MS = 600;

/**
 * '1.234 pessoas (12,5% da base)': the people a filter reaches and their share of the domain's base (issue #29).
 * Above 60,000 persons the server estimates from a sample (`estimated`): the figure reads 'cerca de …'.
 */
export function formatAudience(impact: Pick<Impact, 'impacted' | 'percentualAtingido' | 'estimated'>) {
  const people = `${formatCount(impact.impacted)} ${impact.impacted === 1 ? 'pessoa' : 'pessoas'}`;
  return `${impact.estimated ? 'cerca de ' : ''}${people} (${share.format(impact.percentualAtingido)}% da base)`;
}

/**
 * The audience of the filter being edited, asked again (debounced) whenever the filter changes; an incomplete filter
 * says so instead of showing a figure of another filter.
 */
export function AudienceEstimate({ domainUuid, filter }: { domainUuid: string; filter: FilterState }) {
  const checked = checkFilter(filter);
  const key = checked.ok ? JSON.stringify(checked.block) : null;
  const [debounced] = useDebouncedValue(key, AUDIENCE_DEBOUNCE_MS);
  const settled = debounced === key;
  const query = useQuery({
    queryKey: ['people-impacted', domainUuid, debounced],
    queryFn: async () => (await calculateImpact(domainUuid, [JSON.parse(debounced!)])).data,
    enabled: Boolean(domainUuid && debounced),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const busy = key !== null && (!settled || query.isFetching);

  let text: string;
  if (key === null) text = 'Complete o filtro para estimar o público.';
  else if (query.isError && settled) text = `Não foi possível estimar o público: ${errorMessage(query.error)}`;
  else if (query.data) text = formatAudience(query.data);
  else text = 'Calculando o público…';

  return (
    <Group gap="xs" wrap="nowrap" role="status" aria-label="Público estimado" aria-busy={busy ? 'true' : undefined}>
      <IconUsers size={16} color="var(--mantine-color-grape-6)" aria-hidden />
      <Text size="sm">
        <Text span size="sm" c="dimmed">
          Público estimado:{' '}
        </Text>
        <Text span size="sm" fw={600} c={key === null ? 'dimmed' : undefined}>
          {text}
        </Text>
      </Text>
      {busy ? <Loader size={12} aria-hidden /> : null}
    </Group>
  );
}
