import {
  SIMULATION_DAYS,
  SIMULATION_STAGE_LABELS,
  type SimulationDays,
  type SimulationResult,
  type SimulationStage,
} from '@impeto/shared';
import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconFlask, IconInfoCircle } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { formatCount, formatDateTime, formatShortDay } from '../../../lib/format.ts';
import { notifyError } from '../../../lib/notify.ts';
import { useSimulateMomentum } from '../api/simulate-momentum.ts';

const SimulationChart = lazy(() => import('./simulation-chart.tsx'));

const DAY_OPTIONS = SIMULATION_DAYS.map((d) => ({
  value: String(d),
  label: d === 1 ? 'Último dia' : `Últimos ${d} dias`,
}));

const CHANNEL_LABELS: Record<string, string> = {
  CELL_NOTIFICATION: 'Web push',
  SUPERARE_WEBVIEW: 'Mensagem no site',
  ZENVIA: 'SMS (Zenvia)',
  AWS_SES: 'E-mail (Amazon SES)',
  AKNA: 'E-mail (Akna)',
  ONE_SIGNAL: 'OneSignal',
  CELL_DCM: 'Conteúdo do GCD',
};

export interface SimulationPanelProps {
  /**
   * The momentum as it stands in the editor (the body of /momentum/create), read when 'Simular' is pressed; null
   * says what is missing instead of simulating.
   */
  momentum: () => unknown | null;
  /** Shown when `momentum` answers null. */
  incompleteMessage?: string;
}

/**
 * 'Simular': the momentum in the editor, saved or not, replayed over the domain's last 1, 7 or 30 days (POST
 * /momentum/simulate): people reached per day, messages, the funnel of stages and 20 sample people. Closing the
 * panel (unmounting it) or simulating again aborts the request, and the server stops the replay.
 */
export function SimulationPanel({ momentum, incompleteMessage }: SimulationPanelProps) {
  const [days, setDays] = useState<SimulationDays>(7);
  const [missing, setMissing] = useState<string | null>(null);
  const simulate = useSimulateMomentum();
  const running = useRef<AbortController | null>(null);

  useEffect(() => () => running.current?.abort(), []);

  const run = () => {
    const body = momentum();
    if (!body) {
      setMissing(incompleteMessage ?? 'Complete o gatilho e o canal para simular.');
      return;
    }
    setMissing(null);
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    simulate.mutate(
      { momentum: body, days, signal: controller.signal },
      {
        onError: (error) => {
          if (!controller.signal.aborted) notifyError(error);
        },
      },
    );
  };

  const result = simulate.isPending ? undefined : simulate.data;
  return (
    <Paper withBorder radius="lg" p="lg" aria-label="Simulação">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={2}>
          <Title order={4}>Simular antes de enviar</Title>
          <Text size="sm" c="dimmed">
            Aplica este momentum ao histórico real do domínio, sem enviar nada.
          </Text>
        </Stack>
        <Group gap="xs" align="flex-end">
          <Select
            label="Período"
            data={DAY_OPTIONS}
            value={String(days)}
            onChange={(v) => v && setDays(Number(v) as SimulationDays)}
            allowDeselect={false}
            // Inside the panel: above whatever modal holds it (the diagram's sits over its expanded board).
            comboboxProps={{ withinPortal: false }}
            w={170}
          />
          <Button leftSection={<IconFlask size={16} />} onClick={run} loading={simulate.isPending}>
            Simular
          </Button>
        </Group>
      </Group>
      {missing ? (
        <Alert color="yellow" variant="light" mt="md" icon={<IconInfoCircle />}>
          {missing}
        </Alert>
      ) : null}
      {simulate.isPending ? <SimulationSkeleton /> : null}
      {result ? <SimulationReport result={result} /> : null}
    </Paper>
  );
}

function SimulationSkeleton() {
  return (
    <Stack gap="sm" mt="md" aria-busy="true" aria-label="Simulando">
      <Skeleton h={48} />
      <Skeleton h={140} />
      <Skeleton h={180} />
    </Stack>
  );
}

const stageLabel = (stage: 'sent' | SimulationStage) => (stage === 'sent' ? 'Enviada' : SIMULATION_STAGE_LABELS[stage]);

function SimulationReport({ result }: { result: SimulationResult }) {
  const channel = result.channel ? (CHANNEL_LABELS[result.channel] ?? result.channel) : null;
  const chart = result.by_day.map((d) => ({ date: formatShortDay(d.date), pessoas: d.persons }));
  return (
    <Stack gap="md" mt="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Stack gap={0}>
          <Text size="xs" c="dimmed" fw={600} tt="uppercase">
            Pessoas alcançadas
          </Text>
          <Text fw={700} size="xl">
            {formatCount(result.persons)}
          </Text>
        </Stack>
        <Stack gap={0}>
          <Text size="xs" c="dimmed" fw={600} tt="uppercase">
            Mensagens{channel && result.by_channel.length < 2 ? ` · ${channel}` : ''}
          </Text>
          <Text fw={700} size="xl">
            {formatCount(result.messages)}
          </Text>
          {result.by_channel.length > 1 ? (
            <Text size="xs" c="dimmed">
              {result.by_channel
                .map((c) => `${CHANNEL_LABELS[c.channel] ?? c.channel}: ${formatCount(c.messages)}`)
                .join(' · ')}
            </Text>
          ) : null}
        </Stack>
      </SimpleGrid>

      <Stack gap={4}>
        <Text size="sm" fw={600}>
          Pessoas por dia
        </Text>
        <Suspense fallback={<Skeleton h={140} />}>
          <SimulationChart data={chart} />
        </Suspense>
      </Stack>

      <Table aria-label="Funil da simulação" verticalSpacing={6}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Etapa</Table.Th>
            <Table.Th ta="right">Entraram</Table.Th>
            <Table.Th ta="right">Removidos</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {result.stages.map((s) => (
            <Table.Tr key={s.stage}>
              <Table.Td>{SIMULATION_STAGE_LABELS[s.stage]}</Table.Td>
              <Table.Td ta="right">{formatCount(s.entered)}</Table.Td>
              <Table.Td ta="right" c={s.removed ? 'red.7' : undefined}>
                {formatCount(s.removed)}
              </Table.Td>
            </Table.Tr>
          ))}
          <Table.Tr>
            <Table.Td fw={600}>Enviadas</Table.Td>
            <Table.Td ta="right" fw={600}>
              {formatCount(result.messages)}
            </Table.Td>
            <Table.Td />
          </Table.Tr>
        </Table.Tbody>
      </Table>

      {result.journey ? <JourneyTable rows={result.journey} /> : null}

      {result.sample.length ? (
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            Amostra de pessoas
          </Text>
          <Table.ScrollContainer minWidth={560}>
            <Table aria-label="Amostra de pessoas" verticalSpacing={4} fz="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Destinatário</Table.Th>
                  <Table.Th>Resultado</Table.Th>
                  <Table.Th>Mensagem ou motivo</Table.Th>
                  <Table.Th>Quando</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {result.sample.map((p) => (
                  <Table.Tr key={`${p.recipient}-${p.at}`}>
                    <Table.Td style={{ wordBreak: 'break-all' }}>{p.recipient}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={p.stage === 'sent' ? 'green' : 'gray'} radius="sm">
                        {stageLabel(p.stage)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{p.stage === 'sent' ? (p.message ?? '—') : (p.reason ?? '—')}</Table.Td>
                    <Table.Td>{formatDateTime(p.at)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Stack>
      ) : null}
      <Text size="xs" c="dimmed">
        Simulado em {formatCount(result.took_ms)} ms, de {formatDateTime(result.from)} a {formatDateTime(result.to)}.
        Pessoas como estão hoje (atributos, inscrições e contatos).
      </Text>
    </Stack>
  );
}

type JourneyRow = NonNullable<SimulationResult['journey']>[number];

const journeyRowLabel = (r: JourneyRow) =>
  r.step === 0 ? 'Primeira mensagem' : r.branch === 'otherwise' ? `Etapa ${r.step} · senão` : `Etapa ${r.step}`;

/** A journey's steps (issue #26): who reached each step, who left it and why, who still waits, what was sent. */
function JourneyTable({ rows }: { rows: JourneyRow[] }) {
  const dash = (n: number, show: boolean) => (show ? formatCount(n) : '—');
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        Jornada
      </Text>
      <Table.ScrollContainer minWidth={640}>
        <Table aria-label="Etapas da jornada simulada" verticalSpacing={6} fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Etapa</Table.Th>
              <Table.Th ta="right">Chegaram</Table.Th>
              <Table.Th ta="right">Saíram da jornada</Table.Th>
              <Table.Th ta="right">Condição não atendida</Table.Th>
              <Table.Th ta="right">Aguardando no fim</Table.Th>
              <Table.Th ta="right">Enviadas</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => {
              const main = r.step > 0 && r.branch === 'main';
              return (
                <Table.Tr key={`${r.step}-${r.branch}`}>
                  <Table.Td>{journeyRowLabel(r)}</Table.Td>
                  <Table.Td ta="right">{formatCount(r.reached)}</Table.Td>
                  <Table.Td ta="right">{dash(r.exited, main)}</Table.Td>
                  <Table.Td ta="right">{dash(r.left_by_condition, main)}</Table.Td>
                  <Table.Td ta="right">{dash(r.waiting, main)}</Table.Td>
                  <Table.Td ta="right">
                    {formatCount(r.sent)}
                    {r.variants?.length ? (
                      <Text span size="xs" c="dimmed" display="block">
                        {r.variants.map((v) => `${v.name}: ${formatCount(v.sent)}`).join(' · ')}
                      </Text>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text size="xs" c="dimmed">
        Saem da jornada quem compra enquanto aguarda, quem se descadastra do canal da etapa ou quem passa a atender o
        filtro de saída. Uma mensagem simulada nunca é clicada: a condição "não clicou" sempre se cumpre.
      </Text>
    </Stack>
  );
}
