import type { JourneyStepResult, JourneyVariantResult } from '@impeto/shared';
import { Box, Group, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { Fragment } from 'react';
import { formatCount, formatMoney, formatPercent } from '../../../lib/format.ts';

/** 'Primeira mensagem', 'Etapa 2', 'Etapa 2 · senão'. */
export const journeyRowLabel = (r: Pick<JourneyStepResult, 'step' | 'branch'>) =>
  r.step === 0 ? 'Primeira mensagem' : r.branch === 'otherwise' ? `Etapa ${r.step} · senão` : `Etapa ${r.step}`;

export const JOURNEY_COLUMNS: [string, (r: JourneyStepResult) => string][] = [
  ['Alcançaram', (r) => formatCount(r.reached)],
  ['Saíram pela condição', (r) => formatCount(r.left_by_condition)],
  ['Saíram ao converter', (r) => formatCount(r.exited_conversion)],
  ['Enviadas', (r) => formatCount(r.sent)],
  ['Visualizadas', (r) => formatCount(r.viewed)],
  ['Cliques', (r) => formatCount(r.clicked)],
  ['Conversões', (r) => formatCount(r.conversions)],
  ['Receita (R$)', (r) => formatMoney(r.revenue)],
];

/** A step's A/B variant under its row: what its message did (who reached or left is the step's, not the variant's). */
const VARIANT_COLUMNS: Record<string, (v: JourneyVariantResult) => string> = {
  Enviadas: (v) => formatCount(v.sent),
  Visualizadas: (v) => formatCount(v.viewed),
  Cliques: (v) => formatCount(v.clicked),
  Conversões: (v) => formatCount(v.conversions),
  'Receita (R$)': (v) => formatMoney(v.revenue),
};

const num = { ta: 'right' as const, style: { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' as const } };

/** Per step and branch: who reached it, who left, and what its messages did. */
export function JourneyStepsTable({
  rows,
  label = 'Etapas da jornada',
  compact = false,
}: {
  rows: JourneyStepResult[];
  label?: string;
  /** Inside another table's row (the dashboard): smaller type, no minimum width of its own. */
  compact?: boolean;
}) {
  return (
    // The table scrolls sideways on a narrow screen: its viewport takes the keyboard focus (arrow keys scroll it).
    <ScrollArea type="auto" viewportProps={{ tabIndex: 0, 'aria-label': label }}>
      <Table striped withTableBorder aria-label={label} miw={compact ? undefined : 900} fz={compact ? 'xs' : 'sm'}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Etapa</Table.Th>
            {JOURNEY_COLUMNS.map(([c]) => (
              <Table.Th key={c} ta="right">
                {c}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Fragment key={`${r.step}-${r.branch}`}>
              <Table.Tr>
                <Table.Td fw={600} style={{ whiteSpace: 'nowrap' }}>
                  {journeyRowLabel(r)}
                </Table.Td>
                {JOURNEY_COLUMNS.map(([c, value]) => (
                  <Table.Td key={c} {...num}>
                    {value(r)}
                  </Table.Td>
                ))}
              </Table.Tr>
              {(r.variants ?? []).map((v) => (
                <Table.Tr key={v.name} aria-label={`${journeyRowLabel(r)} · variante ${v.name}`}>
                  <Table.Td pl="lg" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                    Variante {v.name}
                  </Table.Td>
                  {JOURNEY_COLUMNS.map(([c]) => (
                    <Table.Td key={c} {...num} c={VARIANT_COLUMNS[c] ? undefined : 'dimmed'}>
                      {VARIANT_COLUMNS[c]?.(v) ?? '—'}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Fragment>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}

/**
 * The funnel: one bar per step (a split's 'senão' under its step), as wide as the persons who reached it against
 * those who entered; beside it what the step's message did.
 */
export function JourneyFunnel({ rows }: { rows: JourneyStepResult[] }) {
  const top = Math.max(1, ...rows.map((r) => r.reached));
  return (
    <Stack gap="sm" role="list" aria-label="Funil da jornada">
      {rows.map((r) => {
        const share = r.reached / top;
        const otherwise = r.branch === 'otherwise';
        const color = otherwise ? 'orange' : r.step === 0 ? 'blue' : 'indigo';
        return (
          <Box key={`${r.step}-${r.branch}`} role="listitem" aria-label={journeyRowLabel(r)} pl={otherwise ? 'xl' : 0}>
            <Group justify="space-between" gap="xs" mb={4} wrap="nowrap">
              <Text size="sm" fw={600}>
                {journeyRowLabel(r)}
              </Text>
              <Text size="sm" c="dimmed" style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
                {formatCount(r.reached)} {r.reached === 1 ? 'pessoa' : 'pessoas'} ·{' '}
                {formatPercent(Math.round(share * 1000) / 10)}
              </Text>
            </Group>
            <Box
              h={28}
              style={{
                borderRadius: 'var(--mantine-radius-sm)',
                background: 'var(--mantine-color-gray-1)',
                overflow: 'hidden',
              }}
            >
              <Box
                h="100%"
                w={`${Math.max(share * 100, r.reached > 0 ? 1.5 : 0)}%`}
                bg={`var(--mantine-color-${color}-${otherwise ? 4 : 6})`}
                style={{ borderRadius: 'var(--mantine-radius-sm)', transition: 'width 200ms ease' }}
              />
            </Box>
            <Text size="xs" c="dimmed" mt={4}>
              {formatCount(r.sent)} enviadas · {formatCount(r.clicked)} cliques · {formatCount(r.conversions)}{' '}
              {r.conversions === 1 ? 'conversão' : 'conversões'} ({formatMoney(r.revenue)})
              {r.left_by_condition ? ` · ${formatCount(r.left_by_condition)} saíram pela condição` : ''}
              {r.exited_conversion ? ` · ${formatCount(r.exited_conversion)} saíram ao converter` : ''}
            </Text>
            {(r.variants ?? []).map((v) => (
              <Text key={v.name} size="xs" c="dimmed" pl="md" aria-label={`${journeyRowLabel(r)} · variante ${v.name}`}>
                Variante {v.name}: {formatCount(v.sent)} enviadas · {formatCount(v.clicked)} cliques ·{' '}
                {formatCount(v.conversions)} {v.conversions === 1 ? 'conversão' : 'conversões'} (
                {formatMoney(v.revenue)})
              </Text>
            ))}
          </Box>
        );
      })}
    </Stack>
  );
}
