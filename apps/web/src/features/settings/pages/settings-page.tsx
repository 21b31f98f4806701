import { IconSettings } from '@tabler/icons-react';
import { ComingSoonPage } from '../../../components/ui/coming-soon-page.tsx';

export default function SettingsPage() {
  return (
    <ComingSoonPage
      title="Configurações"
      icon={<IconSettings />}
      description="Aqui você poderá completar e editar os dados cadastrais da sua empresa."
    />
  );
}
