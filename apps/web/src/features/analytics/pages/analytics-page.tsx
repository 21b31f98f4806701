import { IconChartBar } from '@tabler/icons-react';
import { ComingSoonPage } from '../../../components/ui/coming-soon-page.tsx';

export default function AnalyticsPage() {
  return (
    <ComingSoonPage
      title="Analytics"
      icon={<IconChartBar />}
      description="Aqui você verá as visitas, opt-ins, desempenho dos momentums e o impacto por evento do domínio selecionado."
    />
  );
}
