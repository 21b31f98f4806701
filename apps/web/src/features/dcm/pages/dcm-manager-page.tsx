import { IconLayoutDashboard } from '@tabler/icons-react';
import { ComingSoonPage } from '../../../components/ui/coming-soon-page.tsx';

export default function DcmManagerPage() {
  return (
    <ComingSoonPage
      title="Gerenciador de conteúdo dinâmico"
      icon={<IconLayoutDashboard />}
      description="Aqui você poderá criar e editar regras de conteúdo dinâmico."
    />
  );
}
