import { IconSpeakerphone } from '@tabler/icons-react';
import { ComingSoonPage } from '../../../components/ui/coming-soon-page.tsx';

export default function CampaignsPage() {
  return (
    <ComingSoonPage
      title="Campanhas"
      icon={<IconSpeakerphone />}
      description="Aqui você poderá agendar campanhas para toda a sua base ou para segmentos."
    />
  );
}
