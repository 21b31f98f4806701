// The little of jsdom the tests use (jsdom ships no types, and @types/jsdom is not installed).
declare module 'jsdom' {
  export class VirtualConsole {
    on(event: 'jsdomError', listener: (error: unknown) => void): this;
  }
  export class JSDOM {
    constructor(html?: string, options?: Record<string, unknown>);
    readonly window: Window & typeof globalThis;
  }
}
