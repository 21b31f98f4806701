import { msg } from '@impeto/shared';
import { IconMailForward } from '@tabler/icons-react';
import { AuthLayout } from '../components/auth-layout.tsx';
import { ResultCard } from '../components/result-card.tsx';

export default function RecoverySuccessPage() {
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
