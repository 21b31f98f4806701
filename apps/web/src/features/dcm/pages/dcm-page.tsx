import { usePageTitle } from '../../../lib/page-title.ts';
import { MomentumList } from '../../momentums/index.ts';

/** /dcm: the domain's GCD items, with the momentum list's tabs, search and row actions (spec doc 2 §2.6). */
export default function DcmPage() {
  usePageTitle('GCD');
  return <MomentumList type="dcm" />;
}
