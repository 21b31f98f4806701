import type { ExperimentWinnerReport } from '@impeto/shared';
import { Badge, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconTrophy } from '@tabler/icons-react';
import { formatCount, formatPercent } from '../../../lib/format.ts';
import { formatZoned, METRIC_LABELS, winnerPlanLine, winnerStatusLine } from '../../blocks/index.ts';

/**
 * Send the winner (issue #25) on the experiment report: the test's plan and, once decided, the winner, the metric,
 * each variant's rate when it was chosen, when the rest went out and to how many.
 */
export function WinnerDecision({
  winner,
  labelOf,
}: {
  winner: ExperimentWinnerReport;
  labelOf: (arm: string) => string;
}) {
  const decided = Boolean(winner.decided_at && winner.winner);
  const status = winnerStatusLine(winner, winner);
  const metric = METRIC_LABELS[winner.metric];
  return (
    <Card withBorder padding="md" aria-label="Envio da vencedora">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={2} size="h4">
          Envio da vencedora
        </Title>
        {decided ? (
          <Badge color="teal" variant="light" leftSection={<IconTrophy size={14} />}>
            Vencedora: {labelOf(winner.winner!)}
          </Badge>
        ) : (
          <Badge color="gray" variant="light">
            Em teste
          </Badge>
        )}
      </Group>
      <Stack gap="xs">
        <Text size="sm">{winnerPlanLine(winner)}</Text>
        <Text size="sm" fw={decided ? 600 : undefined}>
          {status ?? 'O teste começa quando a campanha for enviada.'}
        </Text>
        {decided ? (
          <>
            <Table withTableBorder aria-label="Taxas na decisão" maw={520}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Variante</Table.Th>
                  <Table.Th ta="right">
                    {metric === 'taxa de cliques' ? 'Cliques / enviadas' : 'Converteram / pessoas'}
                  </Table.Th>
                  <Table.Th ta="right">Taxa na decisão</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {winner.rates.map((r) => (
                  <Table.Tr key={r.arm}>
                    <Table.Td fw={r.arm === winner.winner ? 700 : undefined}>{labelOf(r.arm)}</Table.Td>
                    <Table.Td ta="right">
                      {formatCount(r.successes)} / {formatCount(r.trials)}
                    </Table.Td>
                    <Table.Td ta="right">{formatPercent(r.rate)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Text size="xs" c="dimmed">
              Escolhida por {metric} em {formatZoned(winner.decided_at!, 'DD/MM/YYYY [às] HH:mm')}
              {winner.rest !== null
                ? `; o restante do público (${formatCount(winner.rest)} pessoas) recebeu a vencedora.`
                : '.'}{' '}
              Em caso de empate, vence a primeira variante.
            </Text>
          </>
        ) : null}
      </Stack>
    </Card>
  );
}
