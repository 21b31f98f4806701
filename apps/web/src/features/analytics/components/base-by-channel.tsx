import type { BaseChannel } from '@impeto/shared';
import { Badge, Box, ScrollArea, Table, Text } from '@mantine/core';
import { IconBell, IconBrowser, IconMail, IconMessage, IconUsersGroup } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { formatCount } from '../../../lib/format.ts';
import type { WidgetParams } from '../api/analytics-query.ts';
import { useBaseByChannel } from '../api/base-by-channel.ts';
import { WidgetCard } from './widget-card.tsx';

export const CHANNEL_LABELS: Record<BaseChannel, string> = {
  push: 'Notificação push',
  onsite: 'Mensagem no site',
  email: 'E-mail',
  sms: 'SMS',
};
const CHANNEL_ICONS: Record<BaseChannel, ReactNode> = {
  push: <IconBell size={16} />,
  onsite: <IconBrowser size={16} />,
  email: <IconMail size={16} />,
  sms: <IconMessage size={16} />,
};

export function BaseByChannel(params: WidgetParams) {
  const query = useBaseByChannel(params);
  const rows = query.data ?? [];
  return (
    <WidgetCard
      title="Base por canal"
      description="Pessoas que cada canal alcança hoje; novas: chegaram no período"
      icon={<IconUsersGroup size={18} />}
      query={query}
    >
      {() => (
        <>
          <ScrollArea type="auto">
            <Table verticalSpacing={8} horizontalSpacing={8} fz="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Canal</Table.Th>
                  <Table.Th ta="right">Pessoas</Table.Th>
                  <Table.Th ta="right">Novas</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => (
                  <Table.Tr key={row.channel}>
                    <Table.Td>
                      <Text
                        size="sm"
                        span
                        style={{ display: 'inline-flex', alignItems: 'center', gap: 8, whiteSpace: 'nowrap' }}
                      >
                        <Box component="span" c="dimmed" visibleFrom="xs" style={{ display: 'inline-flex' }}>
                          {CHANNEL_ICONS[row.channel]}
                        </Box>
                        {CHANNEL_LABELS[row.channel] ?? row.channel}
                      </Text>
                    </Table.Td>
                    <Table.Td ta="right" fw={600}>
                      {formatCount(row.amount)}
                    </Table.Td>
                    <Table.Td ta="right">
                      {row.new > 0 ? (
                        <Badge variant="light" color="teal" size="sm">
                          +{formatCount(row.new)}
                        </Badge>
                      ) : (
                        <Text span size="sm" c="dimmed">
                          0
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
          {rows.every((r) => r.amount === 0) ? (
            <Text size="xs" c="dimmed" mt="sm">
              Ninguém alcançável ainda: ative a notificação push em Canais e convide os visitantes a aceitar.
            </Text>
          ) : null}
        </>
      )}
    </WidgetCard>
  );
}
