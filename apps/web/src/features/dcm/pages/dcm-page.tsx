import { IconLayoutDashboard } from '@tabler/icons-react';
import { ComingSoonPage } from '../../../components/ui/coming-soon-page.tsx';

export default function DcmPage() {
  return (
    <ComingSoonPage
      title="GCD"
      icon={<IconLayoutDashboard />}
      description="Aqui você poderá gerenciar conteúdo dinâmico exibido nas páginas do seu site."
    />
  );
}
