// The older helpers, kept while tests move to renderPage (render-page.tsx); new tests use renderPage.
export { COMPANY, mountRoutes as renderApp, signIn, stubFetch as mockFetch, withoutWebCrypto } from './render-page.tsx';
