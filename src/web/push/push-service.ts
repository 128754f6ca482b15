// What the API needs of Web Push: the VAPID public key the page subscribes with, and the
// subscriptions it adds or removes. web/push/web-push.ts is the one implementation.

export interface PushStatus {
  available: boolean;
  /** Why push is not available here (plain http, no fleet…), or what it does. */
  why: string;
  subscriptions?: number;
}

export interface PushService {
  status(): PushStatus;
  /** The application server key (VAPID), base64url of the uncompressed P-256 point. */
  publicKey(): string;
  /** Adds a browser's subscription; the problem when it is refused (an endpoint not a push service's). */
  subscribe(body: unknown): Promise<string | null>;
  unsubscribe(body: unknown): Promise<string | null>;
}
