/** Pages that stay reachable while the company has no domain (everything else goes to /domains). */
export const DOMAIN_FREE_PATHS = ['/domains', '/settings', '/profile', '/payment'];

/** Pages whose sidebar item is disabled unless the selected domain is allowed; reaching one directly goes to /domains. */
export const ALLOWED_DOMAIN_PATHS = [
  '/',
  '/v2/momentums',
  '/v2/campaigns',
  '/v2/momentum/create',
  '/v2/campaign/create',
  '/momentum/diagram',
  '/campaign/diagram',
  '/dcm',
  '/dcm/manager',
  '/media',
  '/channels',
];

export const needsAllowedDomain = (pathname: string) =>
  ALLOWED_DOMAIN_PATHS.includes(pathname.replace(/\/+$/, '') || '/');
export const isDomainFree = (pathname: string) => DOMAIN_FREE_PATHS.includes(pathname.replace(/\/+$/, '') || '/');
