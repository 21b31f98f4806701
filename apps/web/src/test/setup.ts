import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// Pages are lazy chunks: on a loaded 2-core box their first render can take more than the default 1 s.
configure({ asyncUtilTimeout: 5000 });

// The ALTCHA widget is a web component with workers; tests drive a bare <altcha-widget> element instead.
vi.mock('altcha', () => ({}));
vi.mock('altcha/i18n/pt-br', () => ({}));

if (typeof window !== 'undefined') {
  // Mantine reads these browser APIs, which jsdom lacks.
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });

  class ResizeObserverShim {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  globalThis.ResizeObserver ??= ResizeObserverShim as unknown as typeof ResizeObserver;
  window.HTMLElement.prototype.scrollIntoView ??= () => {};
  // Mantine's autosize Textarea listens to document.fonts, which jsdom lacks.
  if (!('fonts' in document)) {
    Object.defineProperty(document, 'fonts', {
      configurable: true,
      value: { addEventListener: () => {}, removeEventListener: () => {}, ready: Promise.resolve() },
    });
  }
  window.scrollTo = () => {};
  // CodeMirror measures text through ranges, which jsdom cannot lay out.
  Range.prototype.getClientRects ??= () =>
    ({ length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] }) as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect ??= () => new DOMRect();
}

afterEach(() => {
  cleanup();
  globalThis.localStorage?.clear();
  globalThis.sessionStorage?.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
