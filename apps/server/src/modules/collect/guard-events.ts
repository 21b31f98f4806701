import { type CollectEvent, collectEventSchema, collectMessages } from '@impeto/shared';
import { isPrivateAddress } from '../../lib/safe-agent.ts';
import { storableEvent } from './storable-text.ts';

/** Names that never belong to a public push service: one label, or a suffix reserved for local networks. */
const LOCAL_NAME = /^[^.]+$|\.(?:localhost|local|internal|intranet|lan|home\.arpa)$/;

/**
 * Push endpoints must be https on a public host, so the engine never posts to our own network (SSRF). This is the
 * cheap check by the text at opt-in; the engine checks every DNS answer when it connects (lib/safe-agent.ts).
 */
export function isPublicPushEndpoint(endpoint: string, allowPrivate: boolean) {
  if (allowPrivate) return true;
  const url = new URL(endpoint);
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '')
    .toLowerCase();
  if (url.protocol !== 'https:') return false;
  return /^[\d.]+$|:/.test(host) ? !isPrivateAddress(host) : !LOCAL_NAME.test(host);
}

/** What the service worker may send without a visitor id. */
const isWorkerReport = (e: CollectEvent) => e.t === 'viewed' || e.t === 'clicked' || (e.t === 'optin' && Boolean(e.o));

/**
 * The guard of a request's events (STYLE.md rule 5: one bad event is rejected by its index, the rest are kept): each
 * must match its schema, be storable (`careful`: the body may hold text PostgreSQL refuses, storable-text.ts), name
 * a public push endpoint at opt-in, and come with a visitor id unless the service worker sent it.
 */
export function guardEvents(
  events: unknown[],
  request: { careful: boolean; hasVisitor: boolean; allowPrivateFetch: boolean },
) {
  const accepted: CollectEvent[] = [];
  const rejected: { index: number; message: string }[] = [];
  events.forEach((raw, index) => {
    const event = collectEventSchema.safeParse(raw);
    if (event.success && request.careful) {
      const storable = storableEvent(event.data);
      if ('refused' in storable) {
        const message =
          storable.refused === 'category' ? collectMessages.unstorableCategory : collectMessages.unstorableIdentifier;
        rejected.push({ index, message });
        return;
      }
      event.data = storable.event;
    }
    if (!event.success) {
      rejected.push({ index, message: event.error.issues[0]?.message ?? collectMessages.invalidEvent });
    } else if (event.data.t === 'optin' && !isPublicPushEndpoint(event.data.s.endpoint, request.allowPrivateFetch)) {
      rejected.push({ index, message: collectMessages.privateEndpoint });
    } else if (!request.hasVisitor && !isWorkerReport(event.data)) {
      rejected.push({ index, message: collectMessages.missingVisitor });
    } else accepted.push(event.data);
  });
  return { accepted, rejected };
}
