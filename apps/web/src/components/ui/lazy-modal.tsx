import { type ComponentType, lazy, Suspense, useState } from 'react';

/**
 * A modal whose code (and styles) is fetched when it first opens, not with the page: nothing is rendered until
 * `opened` is first true, then the modal stays mounted so it closes with its transition. `load` picks the component
 * from a dynamic import, e.g. `() => import('./x-modal.tsx').then((m) => m.XModal)`.
 */
export function lazyModal<P extends { opened: boolean }>(load: () => Promise<ComponentType<P>>) {
  const Modal = lazy(() => load().then((component) => ({ default: component })));
  return function LazyModal(props: P) {
    const [mounted, setMounted] = useState(props.opened);
    if (props.opened && !mounted) setMounted(true);
    if (!mounted) return null;
    return (
      <Suspense fallback={null}>
        <Modal {...props} />
      </Suspense>
    );
  };
}
