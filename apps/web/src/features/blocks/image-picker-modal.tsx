import {
  Alert,
  AspectRatio,
  Button,
  Center,
  Group,
  Image,
  Modal,
  ScrollArea,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { IconLink, IconPhoto } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../../lib/api.ts';
import { useGallery } from './api/list-gallery.ts';

export interface ImagePickerModalProps {
  opened: boolean;
  onClose: () => void;
  domainUuid: string;
  initialUrl: string;
  onPick: (url: string) => void;
  /** Shown under the title: the recommended size. */
  hint?: string;
}

/** 'Informe uma URL abaixo': a URL field, SALVAR, and the domain's gallery (library modal 630 px wide). */
export function ImagePickerModal({ opened, onClose, domainUuid, initialUrl, onPick, hint }: ImagePickerModalProps) {
  const [url, setUrl] = useState(initialUrl);
  const gallery = useGallery(domainUuid, opened);
  const pick = (value: string) => {
    onPick(value.trim());
    onClose();
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Informe uma URL abaixo" size={630}>
      <Stack gap="md">
        <Group align="flex-end" wrap="nowrap">
          <TextInput
            flex={1}
            label="URL da imagem"
            description={hint}
            placeholder="https://"
            leftSection={<IconLink size={16} />}
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            data-autofocus
          />
          <Button onClick={() => pick(url)}>SALVAR</Button>
        </Group>
        <Text size="sm" fw={600}>
          Galeria do domínio
        </Text>
        <ScrollArea.Autosize mah={340}>
          {gallery.isPending ? (
            <SimpleGrid cols={4} spacing="sm">
              {[0, 1, 2, 3].map((i) => (
                <Skeleton key={i} h={110} radius="md" />
              ))}
            </SimpleGrid>
          ) : gallery.isError ? (
            // Listing failures carry the server's message (spec doc 1 §8).
            <Alert color="red" variant="light">
              {errorMessage(gallery.error)}
            </Alert>
          ) : (gallery.data ?? []).length === 0 ? (
            <Center py="xl">
              <Stack align="center" gap={4}>
                <IconPhoto size={28} color="var(--mantine-color-gray-5)" />
                <Text size="sm" c="dimmed">
                  Nenhuma imagem na galeria. Envie imagens em Mídia.
                </Text>
              </Stack>
            </Center>
          ) : (
            <SimpleGrid cols={4} spacing="sm">
              {(gallery.data ?? []).map((item) => (
                <UnstyledButton
                  key={item.id}
                  onClick={() => pick(item.image)}
                  aria-label={`Usar ${item.original_name ?? item.name}`}
                  style={{
                    borderRadius: 10,
                    overflow: 'hidden',
                    border: `2px solid ${item.image === url ? 'var(--mantine-color-brand-6)' : 'var(--mantine-color-gray-2)'}`,
                  }}
                >
                  <AspectRatio ratio={1}>
                    <Image src={item.image} alt={item.original_name ?? item.name} fit="cover" />
                  </AspectRatio>
                </UnstyledButton>
              ))}
            </SimpleGrid>
          )}
        </ScrollArea.Autosize>
      </Stack>
    </Modal>
  );
}
