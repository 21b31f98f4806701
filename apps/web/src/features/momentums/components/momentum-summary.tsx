import type { MomentumType, Worktime } from '@impeto/shared';
import { Anchor, Badge, Grid, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconBolt,
  IconCalendarEvent,
  IconCalendarStats,
  IconClockHour4,
  IconFilter,
  IconFlagCheck,
  IconLink,
  IconRepeat,
  IconRotateClockwise,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import {
  blockOf,
  describeDelay,
  describeFilter,
  describeFinish,
  describeIntervals,
  describeRecurrence,
  describeTrigger,
  describeWorktime,
  formatZoned,
  NotificationPreview,
  pushContentOf,
} from '../../blocks/index.ts';

function Line({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  return (
    <Group
      gap="sm"
      wrap="nowrap"
      align="flex-start"
      py={10}
      style={{ borderBottom: '1px solid var(--mantine-color-gray-1)' }}
    >
      <ThemeIcon variant="light" radius="md" size={32}>
        {icon}
      </ThemeIcon>
      <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
        <Text size="xs" c="dimmed" fw={600} tt="uppercase">
          {label}
        </Text>
        <Text size="sm" style={{ wordBreak: 'break-word' }}>
          {children}
        </Text>
      </Stack>
    </Group>
  );
}

export interface MomentumSummaryProps {
  type: MomentumType;
  title: string;
  description?: string | null;
  blocks: unknown[];
  worktime: Worktime | null | undefined;
  siteRoot: string;
  updatedAt?: string | null;
  scheduledAt?: string | null;
  statusBadge?: ReactNode;
}

/** Resumo: every section in words, and the channel preview (spec doc 2 §2.3). */
export function MomentumSummary({
  type,
  title,
  description,
  blocks,
  worktime,
  siteRoot,
  updatedAt,
  scheduledAt,
  statusBadge,
}: MomentumSummaryProps) {
  const trigger = blockOf(blocks, 'trigger');
  const dispatcher = blockOf(blocks, 'dispatcher');
  const push = pushContentOf(dispatcher);
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 7 }}>
        <Paper withBorder radius="lg" p="lg">
          <Group justify="space-between" align="flex-start" mb="xs">
            <Stack gap={2}>
              <Text size="xs" c="dimmed" fw={700} tt="uppercase">
                Resumo {type === 'campaign' ? 'da campanha' : 'do momentum'}
              </Text>
              <Title order={3}>{title || 'Sem título'}</Title>
              {description ? (
                <Text size="sm" c="dimmed">
                  {description}
                </Text>
              ) : null}
            </Stack>
            {statusBadge}
          </Group>
          {updatedAt ? (
            <Badge variant="default" radius="sm" mb="xs" leftSection={<IconClockHour4 size={12} />}>
              Última atualização: {formatZoned(updatedAt)}
            </Badge>
          ) : null}
          <Line icon={<IconFilter size={18} />} label="Filtro">
            {describeFilter(blockOf(blocks, 'filter'))}
          </Line>
          {type === 'momentum' ? (
            <>
              <Line icon={<IconBolt size={18} />} label="Gatilho">
                {describeTrigger(trigger)}
              </Line>
              <Line icon={<IconClockHour4 size={18} />} label="Disparar após">
                {describeDelay(trigger)}
              </Line>
              {(trigger as { values?: { filter?: string }[] } | undefined)?.values?.[0]?.filter === 'recurrence' ? (
                <Line icon={<IconRotateClockwise size={18} />} label="Recorrência">
                  {describeRecurrence(trigger)}
                </Line>
              ) : null}
            </>
          ) : null}
          <Line icon={<IconRepeat size={18} />} label="Intervalo entre envios">
            {describeIntervals(dispatcher)}
          </Line>
          <Line icon={<IconCalendarStats size={18} />} label="Cronograma">
            {describeWorktime(worktime)}
          </Line>
          {scheduledAt ? (
            <Line icon={<IconCalendarEvent size={18} />} label="Agendado para">
              {formatZoned(scheduledAt, 'DD/MM/YYYY - HH:mm')}
            </Line>
          ) : null}
          <Line icon={<IconLink size={18} />} label="URL de redirecionamento">
            {push.redirect_uri ? (
              <Anchor href={push.redirect_uri} target="_blank" rel="noreferrer" size="sm">
                {push.redirect_uri}
              </Anchor>
            ) : (
              '—'
            )}
          </Line>
          {type === 'momentum' ? (
            <Line icon={<IconFlagCheck size={18} />} label="Finalização">
              {describeFinish(blockOf(blocks, 'finish'))}
            </Line>
          ) : null}
        </Paper>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Paper withBorder radius="lg" p="lg">
          <Text size="xs" c="dimmed" fw={700} tt="uppercase">
            Canal · Notificação push
          </Text>
          {push.name ? (
            <Text size="sm" fw={600} mb="sm">
              {push.name}
            </Text>
          ) : null}
          <NotificationPreview
            title={push.title}
            message={push.message}
            icon={push.icon_uri}
            image={push.image}
            buttons={push.buttons}
            siteRoot={siteRoot}
          />
        </Paper>
      </Grid.Col>
    </Grid>
  );
}
