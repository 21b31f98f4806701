import type { AnalyticsRange } from '@impeto/shared';
import { isAnalyticsRange } from '@impeto/shared/core';
import { Alert, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft, IconListDetails, IconRoute } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { useDomainNavigate } from '../../../lib/navigation.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import { useMomentum } from '../../momentums/api/get-momentum.ts';
import { useMomentumJourney } from '../api/journey.ts';
import { JourneyFunnel, JourneyStepsTable } from '../components/journey-steps.tsx';
import { RangePicker } from '../components/range-picker.tsx';
import { shiftDay, todayInZone } from '../range.ts';

/** The range in the URL, else the last 30 days (a journey lasts days, not hours). */
function rangeOf(params: URLSearchParams): AnalyticsRange {
  const start = params.get('start');
  const end = params.get('end');
  if (isAnalyticsRange(start, end)) return { start: start as string, end: end as string };
  const today = todayInZone();
  return { start: shiftDay(today, -29), end: today };
}

/** A momentum's journey (issue #26): the funnel of its steps and each step's figures. `/v2/journey?uuid=`. */
export default function JourneyPage() {
  usePageTitle('Jornada');
  const [params, setParams] = useSearchParams();
  const navigate = useDomainNavigate();
  const uuid = params.get('uuid') ?? '';
  const range = rangeOf(params);
  const momentum = useMomentum(uuid || null);
  const report = useMomentumJourney(momentum.data?.domain_uuid ?? '', uuid, range);
  const changeRange = (next: AnalyticsRange) => {
    const p = new URLSearchParams(params);
    p.set('start', next.start);
    p.set('end', next.end);
    setParams(p);
  };
  const rows = report.data;
  const failure = momentum.error ?? report.error;
  const entered = rows?.find((r) => r.step === 0)?.reached ?? 0;
  const stepCount = momentum.data?.steps?.length ?? 0;

  return (
    <>
      <PageHeader
        title="Jornada"
        description={
          momentum.data ? (
            <>
              Momentum <b>{momentum.data.momentum_title}</b>: quantas pessoas chegam a cada etapa, quantas saem e quanto
              cada mensagem vende.
            </>
          ) : (
            'Quantas pessoas chegam a cada etapa, quantas saem e quanto cada mensagem vende.'
          )
        }
        actions={
          <Group gap="sm">
            <RangePicker value={range} onChange={changeRange} />
            <Button
              variant="default"
              leftSection={<IconListDetails size={16} />}
              onClick={() => navigate(`/v2/deliveries?id=${uuid}`)}
            >
              Entregas
            </Button>
            <Button
              variant="default"
              leftSection={<IconArrowLeft size={16} />}
              onClick={() => navigate('/v2/momentums')}
            >
              Voltar
            </Button>
          </Group>
        }
      />
      {failure ? (
        <Alert color="red" icon={<IconAlertTriangle />} title="Não foi possível carregar a jornada">
          <Text size="sm">{errorMessage(failure)}</Text>
        </Alert>
      ) : !rows ? (
        <Stack aria-busy="true">
          <Skeleton height={220} radius="md" />
          <Skeleton height={180} radius="md" />
        </Stack>
      ) : momentum.data && stepCount === 0 && rows.length <= 1 ? (
        <Card withBorder radius="md" p="xl">
          <Stack align="center" gap="xs">
            <IconRoute size={36} color="var(--mantine-color-gray-5)" />
            <Text fw={600}>Este momentum não tem jornada</Text>
            <Text size="sm" c="dimmed" ta="center" maw={480}>
              Adicione etapas no diagrama ou no formulário (seção Jornada) para enviar mensagens de acompanhamento a
              quem ainda não comprou.
            </Text>
          </Stack>
        </Card>
      ) : (
        <Stack gap="lg">
          <Card withBorder radius="md" p="lg">
            <Group justify="space-between" mb="md" align="flex-start">
              <Stack gap={2}>
                <Title order={4}>Funil da jornada</Title>
                <Text size="sm" c="dimmed">
                  {entered
                    ? `${entered.toLocaleString('pt-BR')} ${entered === 1 ? 'pessoa entrou' : 'pessoas entraram'} na jornada no período; cada barra mostra quantas chegaram à etapa.`
                    : 'Ninguém entrou na jornada no período: as barras enchem quando a primeira mensagem for enviada.'}
                </Text>
              </Stack>
            </Group>
            <JourneyFunnel rows={rows} />
          </Card>
          <Card withBorder radius="md" p="lg">
            <Title order={4} mb="md">
              Etapas
            </Title>
            <JourneyStepsTable rows={rows} />
            <Text size="xs" c="dimmed" mt={6}>
              Conversões e receita contam para a mensagem da etapa que a pessoa clicou ou viu por último.
            </Text>
          </Card>
        </Stack>
      )}
    </>
  );
}
