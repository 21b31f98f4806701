import { IconUserCircle } from '@tabler/icons-react';
import { ComingSoonPage } from '../../../components/ui/coming-soon-page.tsx';

export default function ProfilePage() {
  return (
    <ComingSoonPage
      title="Perfil"
      icon={<IconUserCircle />}
      description="Aqui você poderá atualizar seus dados pessoais e sua senha."
    />
  );
}
