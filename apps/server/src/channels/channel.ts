/*
 * One interface for every delivery channel: web push, on-site message, SMS (Zenvia), e-mail (Amazon SES, Akna)
 * and OneSignal push.
 * The engine claims a due delivery, resolves everything the channel needs into a ChannelDelivery and calls
 * `send`; the adapter never touches the deliveries table. It answers how it went, and the engine records it.
 */

export interface PushSubscriptionKeys {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface ChannelDelivery {
  /** The delivery id: goes into the payload so viewed/clicked reports find their delivery. */
  id: string;
  momentumUuid: string;
  domain: { uuid: string; root: string; vapidPublic: string; vapidPrivate: string };
  person: {
    uuid: string;
    visitorId: string;
    email: string | null;
    phone: string | null;
    pushSubscription: PushSubscriptionKeys | null;
    attributes: Record<string, unknown>;
  };
  /** The dispatcher block's values (spec doc 2 §3.5): `filter` is the channel type, then its fields. */
  content: Record<string, unknown> & { filter: string };
  /** The channel row's decrypted properties (credentials of SMS/e-mail providers); {} when none. */
  channelProperties: Record<string, unknown>;
  /** The one-click unsubscribe address of this person (RFC 8058), for e-mail channels. */
  unsubscribeUrl?: string;
  /** Seconds the message stays worth delivering (push TTL, on-site expiry). */
  ttlSeconds: number;
}

export type SendResult =
  | { ok: true }
  /**
   * transient: network error, 5xx, 429 → retried with backoff. gone: the address no longer exists
   * (web push 404/410) → the person is opted out. Anything else is a permanent failure with its reason.
   */
  | {
      ok: false;
      transient: boolean;
      reason: string;
      gone?: boolean;
      retryAfterSeconds?: number;
      /** Nothing was sent on purpose (no contact data, opted out): recorded as `skipped`, not as a failure. */
      skipped?: boolean;
      /** The provider refused the channel's credentials: the channel is marked so the dashboard shows it. */
      credentialsRefused?: boolean;
    };

export interface ChannelAdapter {
  /** The channel_type it sends (CELL_NOTIFICATION, SUPERARE_WEBVIEW, …). */
  readonly type: string;
  send(delivery: ChannelDelivery): Promise<SendResult>;
  close?(): Promise<void>;
}
