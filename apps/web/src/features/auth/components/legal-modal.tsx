import { List, Modal, Stack, Text } from '@mantine/core';

/** A legal text in a dialog; its own chunk, fetched only when a link is clicked. */
export default function LegalModal({
  opened,
  onClose,
  title,
  intro,
  items,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  intro: string;
  items: string[];
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg">
      <Stack gap="sm">
        <Text size="sm">{intro}</Text>
        <List size="sm" spacing="xs">
          {items.map((item) => (
            <List.Item key={item}>{item}</List.Item>
          ))}
        </List>
        <Text size="xs" c="dimmed">
          Texto provisório: a versão definitiva será publicada nesta página.
        </Text>
      </Stack>
    </Modal>
  );
}
