import { createHash } from 'node:crypto';

/**
 * What an erasure keeps of a visitor id (person_erasures, LGPD): enough for the ingestor to recognise requests
 * accepted before the erasure and stored after it, not enough to read the id back.
 */
export const visitorHash = (domainUuid: string, visitorId: string) =>
  createHash('sha256').update(`${domainUuid}:${visitorId}`).digest('base64url');
