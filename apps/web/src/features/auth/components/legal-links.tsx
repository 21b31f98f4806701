import { Anchor, Group, List, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';

function LegalModal({
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

export function LegalLinks() {
  const [termsOpened, terms] = useDisclosure(false);
  const [privacyOpened, privacy] = useDisclosure(false);
  return (
    <>
      <Group justify="center" gap="lg">
        <Anchor component="button" type="button" size="xs" c="dimmed" onClick={terms.open}>
          Termos de uso
        </Anchor>
        <Anchor component="button" type="button" size="xs" c="dimmed" onClick={privacy.open}>
          Política de privacidade
        </Anchor>
      </Group>
      <LegalModal
        opened={termsOpened}
        onClose={terms.close}
        title="Termos de uso"
        intro="Ao usar o Ímpeto, sua empresa concorda em utilizar a plataforma de acordo com a legislação vigente e com estes termos."
        items={[
          'A conta pertence à empresa cadastrada, que responde pelos usuários que convida.',
          'Os dados coletados nos seus sites são seus; o Ímpeto os processa apenas para prestar o serviço.',
          'É proibido enviar mensagens não solicitadas ou conteúdo ilegal pelos canais integrados.',
        ]}
      />
      <LegalModal
        opened={privacyOpened}
        onClose={privacy.close}
        title="Política de privacidade"
        intro="Tratamos dados pessoais conforme a Lei Geral de Proteção de Dados (LGPD)."
        items={[
          'Coletamos apenas os dados necessários para autenticar usuários e operar a plataforma.',
          'Senhas são armazenadas com hash e nunca são exibidas.',
          'Você pode solicitar a exclusão dos seus dados a qualquer momento.',
        ]}
      />
    </>
  );
}
