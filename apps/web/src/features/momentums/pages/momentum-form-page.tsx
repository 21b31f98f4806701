import { MomentumFormPage } from '../components/momentum-form-page.tsx';

export default function MomentumCreatePage() {
  return <MomentumFormPage type="momentum" />;
}
