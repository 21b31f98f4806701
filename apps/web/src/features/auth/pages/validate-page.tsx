import { msg } from '@impeto/shared';
import { IconAlertTriangle, IconUserQuestion } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { CenteredLoader } from '../../../components/ui/centered-loader.tsx';
import { usePageTitle } from '../../../lib/page-title.ts';
import { validateAccount } from '../api/validate-account.ts';
import { AuthLayout } from '../components/auth-layout.tsx';
import { ResultCard } from '../components/result-card.tsx';

export default function ValidatePage() {
  usePageTitle('Validação da conta');
  const [params] = useSearchParams();
  const cid = params.get('cid')?.trim() ?? '';
  const navigate = useNavigate();
  const [failed, setFailed] = useState(false);
  const started = useRef<string | null>(null);

  useEffect(() => {
    // StrictMode runs effects twice; the link is single-use, so call the server once per cid.
    if (!cid || started.current === cid) return;
    started.current = cid;
    validateAccount(cid).then(
      () => navigate('/signin', { replace: true, state: { validated: true } }),
      () => setFailed(true),
    );
  }, [cid, navigate]);

  if (!cid) {
    return (
      <AuthLayout>
        <ResultCard
          icon={<IconUserQuestion size={34} />}
          color="gray"
          title={msg.validation.accountNotFound}
          description="O link de validação está incompleto. Crie sua conta para receber um novo."
          action={{ label: 'Criar conta', to: '/signup/company' }}
        />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout>
      {failed ? (
        <ResultCard
          icon={<IconAlertTriangle size={34} />}
          color="red"
          title={msg.validation.failed}
          description="A conta já foi validada ou o link está corrompido."
          action={{ label: 'Ir para o login', to: '/signin' }}
        />
      ) : (
        <CenteredLoader label="Validando sua conta..." />
      )}
    </AuthLayout>
  );
}
