import { Button, Card, Group, NumberInput, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconGauge } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useFrequencyCap, useUpdateFrequencyCap } from '../api/frequency-cap.ts';

type CapValue = number | string;
const toCap = (v: CapValue) => (v === '' || v === undefined ? null : Number(v));

/**
 * The domain's frequency cap: at most N messages per person per 24 h and per 7 days, counting push, on-site,
 * SMS and e-mail together. Empty = no cap. Over the cap a message waits (when the momentum repeats) or is
 * skipped with 'limite de frequência', which the delivery log shows.
 */
export function FrequencyCapCard({ domainUuid }: { domainUuid: string }) {
  const cap = useFrequencyCap(domainUuid);
  const save = useUpdateFrequencyCap(domainUuid);
  const [day, setDay] = useState<CapValue>('');
  const [week, setWeek] = useState<CapValue>('');

  useEffect(() => {
    if (!cap.data) return;
    setDay(cap.data.frequency_cap_day ?? '');
    setWeek(cap.data.frequency_cap_week ?? '');
  }, [cap.data]);

  const submit = () =>
    save.mutate(
      { frequency_cap_day: toCap(day), frequency_cap_week: toCap(week) },
      { onSuccess: ({ message }) => notifySuccess(message), onError: notifyError },
    );

  return (
    <Card withBorder padding="lg" mt="xl" maw={720} component="section" aria-label="Limite de frequência">
      <Group gap="sm" mb="xs" wrap="nowrap">
        <IconGauge size={22} />
        <Title order={4}>Limite de frequência</Title>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        Quantas mensagens cada visitante pode receber deste domínio, somando push, on-site, SMS e e-mail. Deixe em
        branco para não limitar. Acima do limite, a mensagem espera o próximo horário permitido quando o momentum
        permite mais de um envio; caso contrário, não é enviada ('limite de frequência').
      </Text>
      {cap.isPending ? (
        <Group>
          <Skeleton height={56} width={200} />
          <Skeleton height={56} width={200} />
        </Group>
      ) : (
        <Stack gap="md">
          <Group align="flex-end" wrap="wrap">
            <NumberInput
              label="Por dia (24 horas)"
              placeholder="Sem limite"
              min={1}
              max={1000}
              allowDecimal={false}
              allowNegative={false}
              value={day}
              onChange={setDay}
              w={200}
            />
            <NumberInput
              label="Por semana (7 dias)"
              placeholder="Sem limite"
              min={1}
              max={1000}
              allowDecimal={false}
              allowNegative={false}
              value={week}
              onChange={setWeek}
              w={200}
            />
            <Button onClick={submit} loading={save.isPending}>
              Salvar limite
            </Button>
          </Group>
        </Stack>
      )}
    </Card>
  );
}
