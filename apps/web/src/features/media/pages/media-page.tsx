import { msg } from '@impeto/shared';
import { Alert, AspectRatio, Button, Card, EmptyState, Paper, SimpleGrid, Skeleton, Text } from '@mantine/core';
import { IconAlertTriangle, IconPhoto, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { useLoadErrorToast } from '../../../lib/notify.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import { useMedia } from '../api/list-media.ts';
import { MediaCard } from '../components/media-card.tsx';
import { UploadMediaModal } from '../components/upload-media-modal.tsx';

const GRID = { base: 2, sm: 3, md: 4, xl: 5 };
const SKELETONS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];

export default function MediaPage() {
  usePageTitle('Mídias');
  const [params] = useSearchParams();
  const domainUuid = params.get('domain') ?? '';
  const mediaQuery = useMedia(domainUuid);
  useLoadErrorToast(mediaQuery);
  const [uploading, setUploading] = useState(false);
  const items = mediaQuery.data ?? [];

  const addButton = (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setUploading(true)}>
      Adicionar mídia
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Mídias"
        description="Imagens usadas nas suas notificações e mensagens deste domínio."
        actions={addButton}
      />
      {mediaQuery.isError ? (
        <Alert color="red" icon={<IconAlertTriangle />} title="Não foi possível carregar as mídias" maw={640}>
          <Text size="sm" mb="sm">
            {errorMessage(mediaQuery.error)}
          </Text>
          <Button size="xs" variant="light" color="red" onClick={() => mediaQuery.refetch()}>
            Tentar novamente
          </Button>
        </Alert>
      ) : mediaQuery.isPending ? (
        <SimpleGrid cols={GRID} spacing="md" aria-busy="true" aria-label="Carregando mídias">
          {SKELETONS.map((key) => (
            <Card key={key} withBorder padding="sm">
              <Card.Section>
                <AspectRatio ratio={4 / 3}>
                  <Skeleton radius={0} />
                </AspectRatio>
              </Card.Section>
              <Skeleton height={12} width="70%" mt="sm" />
              <Skeleton height={10} width="40%" mt={6} />
            </Card>
          ))}
        </SimpleGrid>
      ) : items.length === 0 ? (
        <Paper withBorder radius="lg" p="xl">
          <EmptyState
            py="xl"
            size="lg"
            variant="light"
            icon={<IconPhoto />}
            title="Galeria vazia"
            description={msg.media.empty}
          >
            <EmptyState.Actions>
              <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => setUploading(true)}>
                Adicionar mídia
              </Button>
            </EmptyState.Actions>
          </EmptyState>
        </Paper>
      ) : (
        <SimpleGrid cols={GRID} spacing="md">
          {items.map((item) => (
            <MediaCard key={item.id} item={item} domainUuid={domainUuid} />
          ))}
        </SimpleGrid>
      )}
      <UploadMediaModal opened={uploading} onClose={() => setUploading(false)} domainUuid={domainUuid} />
    </>
  );
}
