import { randomUUID } from 'node:crypto';
import { json, startHttpPeer } from './http-peer.ts';

/*
 * OneSignal's REST API on 127.0.0.1: `POST /notifications`. It checks the app's REST API key
 * (`Authorization: Key …`, 403 otherwise), the app id, the required fields (headings, contents in en, the target
 * aliases), drops a repeated idempotency_key, and answers like OneSignal: `{ id }`, or `{ id: '', errors }` when
 * no targeted external id has a subscription.
 */

export interface OneSignalNotification {
  id: string;
  appId: string;
  externalIds: string[];
  headings: Record<string, string>;
  contents: Record<string, string>;
  url?: string;
  image?: string;
  at: Date;
}

export async function startOneSignalPeer(options: { apps?: Record<string, string> } = {}) {
  const apps = new Map(Object.entries(options.apps ?? {}));
  const subscribed = new Set<string>();
  const seen = new Set<string>();
  const received: OneSignalNotification[] = [];
  const peer = await startHttpPeer((req) => {
    if (req.method !== 'POST' || req.path !== '/notifications') return json(404, { errors: ['Not Found'] });
    let b: {
      app_id?: string;
      include_aliases?: { external_id?: string[] };
      headings?: Record<string, string>;
      contents?: Record<string, string>;
      url?: string;
      chrome_web_image?: string;
      idempotency_key?: string;
    };
    try {
      b = JSON.parse(req.body.toString('utf8'));
    } catch {
      return json(400, { errors: ['Invalid JSON'] });
    }
    const key = apps.get(b.app_id ?? '');
    if (key === undefined)
      return json(400, { errors: ['app_id not found. You may be missing a Content-Type: application/json header.'] });
    if (String(req.headers.authorization ?? '') !== `Key ${key}`)
      return json(403, {
        errors: ["Access denied.  Please include an 'Authorization: Key <API-KEY>' header with a valid API key."],
      });
    if (!b.contents?.en) return json(400, { errors: ['Message Notifications must have English language content'] });
    const targets = b.include_aliases?.external_id ?? [];
    if (targets.length === 0)
      return json(400, {
        errors: ['You must include which players, segments, or tags you wish to send this notification to.'],
      });
    if (b.idempotency_key) {
      if (seen.has(b.idempotency_key)) return json(200, { id: b.idempotency_key, external_id: null });
      seen.add(b.idempotency_key);
    }
    const reached = targets.filter((t) => subscribed.has(t));
    if (reached.length === 0) return json(200, { id: '', errors: { invalid_aliases: { external_id: targets } } });
    const n: OneSignalNotification = {
      id: randomUUID(),
      appId: b.app_id!,
      externalIds: reached,
      headings: b.headings ?? {},
      contents: b.contents,
      ...(b.url ? { url: b.url } : {}),
      ...(b.chrome_web_image ? { image: b.chrome_web_image } : {}),
      at: new Date(),
    };
    received.push(n);
    return json(200, { id: n.id, external_id: null });
  });
  return {
    ...peer,
    received,
    addApp(appId: string, restKey: string) {
      apps.set(appId, restKey);
    },
    /** This external id has a OneSignal push subscription. */
    subscribe(externalId: string) {
      subscribed.add(externalId);
    },
  };
}

export type OneSignalPeer = Awaited<ReturnType<typeof startOneSignalPeer>>;
