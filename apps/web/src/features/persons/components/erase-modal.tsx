import { Alert, Button, Checkbox, Group, List, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';

/** The erasure's confirmation: says it is final and what goes, and asks for an explicit acknowledgement. */
export function EraseModal({
  opened,
  subject,
  persons,
  loading,
  onClose,
  onConfirm,
}: {
  opened: boolean;
  subject: string;
  persons: number;
  loading: boolean;
  onClose: () => void;
  onConfirm: () => void;
}) {
  const [understood, setUnderstood] = useState(false);
  useEffect(() => {
    if (!opened) setUnderstood(false);
  }, [opened]);

  return (
    <Modal opened={opened} onClose={onClose} title="Apagar dados do visitante" size="md">
      <Stack gap="md">
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="Esta ação é definitiva">
          Os dados apagados não podem ser recuperados, nem por você nem pela equipe do Ímpeto.
        </Alert>
        <Text size="sm">
          Serão apagados {persons === 1 ? 'os dados do visitante' : `os dados de ${persons} visitantes`} encontrados por{' '}
          <b>{subject}</b>:
        </Text>
        <List size="sm" spacing={4}>
          <List.Item>o cadastro e os atributos (e-mail, telefone, nome, dispositivo, localização);</List.Item>
          <List.Item>todos os eventos e páginas visitadas;</List.Item>
          <List.Item>mensagens no site que ainda aguardam exibição;</List.Item>
          <List.Item>
            o vínculo com os envios já feitos (eles seguem contados nos relatórios, sem identificar ninguém).
          </List.Item>
        </List>
        <Checkbox
          checked={understood}
          onChange={(event) => setUnderstood(event.currentTarget.checked)}
          label="Entendo que os dados serão apagados definitivamente."
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancelar
          </Button>
          <Button
            color="red"
            leftSection={<IconTrash size={16} />}
            disabled={!understood}
            loading={loading}
            onClick={onConfirm}
          >
            Apagar definitivamente
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
