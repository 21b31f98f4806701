import { IconBolt } from '@tabler/icons-react';
import { ComingSoonPage } from '../../../components/ui/coming-soon-page.tsx';

export default function MomentumsPage() {
  return (
    <ComingSoonPage
      title="Momentums"
      icon={<IconBolt />}
      description="Aqui você poderá criar mensagens automáticas disparadas pelo comportamento dos visitantes."
    />
  );
}
