import type { ChannelType } from '@impeto/shared';
import { Alert, Button, Card, Group, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { useSelectedDomain } from '../../../lib/domain-store.ts';
import { useLoadErrorToast } from '../../../lib/notify.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import { useChannels } from '../api/list-channels.ts';
import { ChannelCard } from '../components/channel-card.tsx';
import { CHANNEL_CARDS, channelDefinition } from '../components/channel-catalog.tsx';
import { ChannelModal, type ChannelModalMode } from '../components/channel-modal.tsx';
import { FrequencyCapCard } from '../components/frequency-cap-card.tsx';

const GRID = { base: 1, sm: 2, lg: 3 };

function ChannelCardSkeleton() {
  return (
    <Card withBorder padding="lg" aria-hidden>
      <Group justify="space-between">
        <Skeleton height={44} width={44} radius="md" />
        <Skeleton height={20} width={20} radius="sm" />
      </Group>
      <Stack gap={8} mt="md">
        <Skeleton height={16} width="50%" />
        <Skeleton height={12} />
        <Skeleton height={12} width="80%" />
      </Stack>
      <Skeleton height={26} width={120} mt="lg" />
    </Card>
  );
}

export default function ChannelsPage() {
  usePageTitle('Canais');
  const [params] = useSearchParams();
  const domainUuid = params.get('domain') ?? '';
  const selected = useSelectedDomain();
  const channelsQuery = useChannels(domainUuid);
  useLoadErrorToast(channelsQuery);
  const [modal, setModal] = useState<{ type: ChannelType; mode: ChannelModalMode; opened: boolean } | null>(null);
  const definition = modal ? channelDefinition(modal.type) : undefined;
  const byType = (type: ChannelType) => channelsQuery.data?.find((c) => c.channel_type === type && c.active);

  return (
    <>
      <PageHeader
        title="Canais"
        description={
          selected?.uuid === domainUuid
            ? `Conecte os canais de envio do domínio ${selected.name}.`
            : 'Conecte os canais de envio do domínio.'
        }
      />
      {channelsQuery.isError ? (
        <Alert color="red" icon={<IconAlertTriangle />} title="Não foi possível carregar os canais" maw={640}>
          <Text size="sm" mb="sm">
            {errorMessage(channelsQuery.error)}
          </Text>
          <Button size="xs" variant="light" color="red" onClick={() => channelsQuery.refetch()}>
            Tentar novamente
          </Button>
        </Alert>
      ) : (
        <SimpleGrid cols={GRID} spacing="lg">
          {channelsQuery.isPending
            ? CHANNEL_CARDS.map((card) => <ChannelCardSkeleton key={card.type} />)
            : CHANNEL_CARDS.map((card) => (
                <ChannelCard
                  key={card.type}
                  definition={card}
                  channel={byType(card.type)}
                  onOpen={(mode) => setModal({ type: card.type, mode, opened: true })}
                />
              ))}
        </SimpleGrid>
      )}
      {domainUuid ? <FrequencyCapCard domainUuid={domainUuid} /> : null}
      {modal && definition ? (
        <ChannelModal
          key={modal.type}
          opened={modal.opened}
          mode={modal.mode}
          definition={definition}
          channel={byType(modal.type)}
          domainUuid={domainUuid}
          onClose={() => setModal({ ...modal, opened: false })}
          onModeChange={(mode) => setModal({ ...modal, mode, opened: true })}
        />
      ) : null}
    </>
  );
}
