import { IconCreditCard } from '@tabler/icons-react';
import { ComingSoonPage } from '../../../components/ui/coming-soon-page.tsx';

export default function PaymentPage() {
  return (
    <ComingSoonPage
      title="Pagamento"
      icon={<IconCreditCard />}
      description="Aqui você poderá consultar seu plano, faturas e forma de pagamento."
    />
  );
}
