import { MomentumList } from '../components/momentum-list.tsx';

export default function MomentumsPage() {
  return <MomentumList type="momentum" />;
}
