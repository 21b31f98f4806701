import { usePageTitle } from '../../../lib/page-title.ts';
import { MomentumList } from '../components/momentum-list.tsx';

export default function MomentumsPage() {
  usePageTitle('Momentums');
  return <MomentumList type="momentum" />;
}
