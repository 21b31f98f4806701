import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/** Served to customer sites (the tag, the collector, media in their notifications): no dashboard headers there. */
export const isCrossSiteRoute = (url: string) => /^\/(t|collect|media)(\/|$|\*)/.test(url);

/**
 * The dashboard's and the API's security headers (helmet): a CSP that the dashboard actually runs under —
 * Vite's bundles from 'self' and no inline script; Mantine's inline styles; the ALTCHA widget's proof-of-work
 * worker, which it starts from a blob: URL; images the user points at (notification previews) — plus
 * frame-ancestors 'none' and X-Frame-Options DENY (the dashboard is never framed). The tag files, the collector
 * and media files are used from customer sites: they keep their own headers, since CORP same-origin or COOP
 * there would break cross-origin use.
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  config: { publicUrl: string; allowPrivateFetch: boolean },
) {
  app.addHook('onRoute', (route) => {
    if (isCrossSiteRoute(route.url))
      route.config = { ...route.config, helmet: { skipRoute: true } } as typeof route.config;
  });
  const https = config.publicUrl.startsWith('https:');
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'base-uri': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:', 'https:', ...(config.allowPrivateFetch ? ['http:'] : [])],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'"],
        'worker-src': ["'self'", 'blob:'],
        'manifest-src': ["'self'"],
        'media-src': ["'self'", 'data:', 'blob:'],
        'object-src': ["'none'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
        ...(https ? { 'upgrade-insecure-requests': [] } : {}),
      },
    },
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
  });
}
