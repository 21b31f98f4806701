import { usePageTitle } from '../../../lib/page-title.ts';
import { MomentumFormPage } from '../components/momentum-form-page.tsx';

export default function MomentumCreatePage() {
  usePageTitle('Momentum');
  return <MomentumFormPage type="momentum" />;
}
