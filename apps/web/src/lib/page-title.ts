import { useEffect } from 'react';

export const PRODUCT_NAME = 'Ímpeto';

/** What the browser tab shows for a page: 'Domínios · Ímpeto'; the product name alone without a page title. */
export const pageTitle = (title?: string) => (title ? `${title} · ${PRODUCT_NAME}` : PRODUCT_NAME);

/** Every page names itself in the browser tab (and history) with this hook. */
export function usePageTitle(title: string) {
  useEffect(() => {
    document.title = pageTitle(title);
  }, [title]);
}
