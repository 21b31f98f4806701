import { IconPlugConnected } from '@tabler/icons-react';
import { ComingSoonPage } from '../../../components/ui/coming-soon-page.tsx';

export default function ChannelsPage() {
  return (
    <ComingSoonPage
      title="Canais"
      icon={<IconPlugConnected />}
      description="Aqui você poderá conectar notificações push, SMS, e-mail e mensagens no site a este domínio."
    />
  );
}
