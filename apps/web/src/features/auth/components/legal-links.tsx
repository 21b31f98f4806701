import { Anchor, Group } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { lazy, Suspense, useState } from 'react';

// The dialog code loads on the first click, not with the sign-in page.
const LegalModal = lazy(() => import('./legal-modal.tsx'));

export function LegalLinks() {
  const [termsOpened, terms] = useDisclosure(false);
  const [privacyOpened, privacy] = useDisclosure(false);
  // Mounted from the first opening on, so closing keeps its transition.
  const [shown, setShown] = useState({ terms: false, privacy: false });
  return (
    <>
      <Group justify="center" gap="lg">
        <Anchor
          component="button"
          type="button"
          size="xs"
          c="dimmed"
          onClick={() => {
            setShown((s) => ({ ...s, terms: true }));
            terms.open();
          }}
        >
          Termos de uso
        </Anchor>
        <Anchor
          component="button"
          type="button"
          size="xs"
          c="dimmed"
          onClick={() => {
            setShown((s) => ({ ...s, privacy: true }));
            privacy.open();
          }}
        >
          Política de privacidade
        </Anchor>
      </Group>
      <Suspense fallback={null}>
        {shown.terms ? (
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
        ) : null}
        {shown.privacy ? (
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
        ) : null}
      </Suspense>
    </>
  );
}
