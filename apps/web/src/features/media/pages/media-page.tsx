import { IconPhoto } from '@tabler/icons-react';
import { ComingSoonPage } from '../../../components/ui/coming-soon-page.tsx';

export default function MediaPage() {
  return (
    <ComingSoonPage
      title="Mídias"
      icon={<IconPhoto />}
      description="Aqui você poderá enviar e organizar as imagens usadas nas suas mensagens."
    />
  );
}
