import { usePageTitle } from '../../../lib/page-title.ts';
import { MomentumList } from '../components/momentum-list.tsx';

export default function MomentumsPage() {
  // The spec's page title (doc 2 §2.1: 'Momentum, Campanha and Domains'); the header keeps the plural.
  usePageTitle('Momentum');
  return <MomentumList type="momentum" />;
}
