import { msg } from '@impeto/shared';
import { IconMailForward } from '@tabler/icons-react';
import { usePageTitle } from '../../../lib/page-title.ts';
import { AuthLayout } from '../components/auth-layout.tsx';
import { ResultCard } from '../components/result-card.tsx';

export default function RecoverySuccessPage() {
  usePageTitle('Verifique seu e-mail');
  return (
    <AuthLayout>
      <ResultCard
        icon={<IconMailForward size={34} />}
        color="brand"
        title="Verifique seu e-mail"
        description={`${msg.recovery.requested} O link vale por tempo limitado e só pode ser usado uma vez.`}
        action={{ label: 'Voltar para o login', to: '/signin' }}
      />
    </AuthLayout>
  );
}
