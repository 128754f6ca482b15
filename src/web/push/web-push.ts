// Web Push for `fleetcom web`: the VAPID key and the browsers' subscriptions, kept 0600 in
// `<config dir>/web/push.json`, and the sending: each alert encrypted per subscription
// (ece.ts) and POSTed to its push service (endpoints.ts limits where), under a deadline; a
// subscription its service says is gone (404, 410) is dropped.
import type { JsonWebKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { errnoCode } from '../../errors.js';
import { writeFileAtomicSync } from '../../fs-safety.js';
import type { PushService, PushStatus } from './push-service.js';
import { encryptPush } from './ece.js';
import { readSubscription, type Subscription } from './endpoints.js';
import { newVapidJwk, vapidAuthorization, vapidKeys, type VapidKeys } from './vapid.js';

/** The most subscriptions kept: a phone or two and a desktop, with room. */
const MAX_SUBSCRIPTIONS = 20;
const SEND_TIMEOUT_MS = 10_000;

interface Stored {
  vapid: JsonWebKey;
  subscriptions: Array<Subscription & { addedAt: string }>;
}

export interface PushMessage {
  title: string;
  body: string;
  task: number | null;
  tag: string;
}

export interface WebPushDeps {
  /** The file (its directory is the token's, 0700). */
  file: string;
  now: () => number;
  log: (line: string) => void;
  /** The POST (global fetch unless a test brings its own). */
  post?: typeof fetch;
  /** The push hosts allowed (endpoints.ts's list unless a test says otherwise). */
  hosts?: ReadonlyArray<string | RegExp>;
}

export class WebPush implements PushService {
  private stored: Stored;
  private readonly keys: VapidKeys;

  constructor(private readonly deps: WebPushDeps) {
    this.stored = load(deps.file);
    this.keys = vapidKeys(this.stored.vapid);
  }

  get count(): number {
    return this.stored.subscriptions.length;
  }

  status(): PushStatus {
    return { available: true, why: 'alerts to this device under config notify (delay, cooldown, not while watched)', subscriptions: this.count };
  }

  publicKey(): string {
    return this.keys.publicKey;
  }

  async subscribe(body: unknown): Promise<string | null> {
    const sub = readSubscription(body, this.deps.hosts);
    if (typeof sub === 'string') return sub;
    const rest = this.stored.subscriptions.filter((s) => s.endpoint !== sub.endpoint);
    this.save({ ...this.stored, subscriptions: [...rest, { ...sub, addedAt: new Date(this.deps.now()).toISOString() }].slice(-MAX_SUBSCRIPTIONS) });
    return null;
  }

  async unsubscribe(body: unknown): Promise<string | null> {
    const endpoint = (body as { endpoint?: unknown } | null)?.endpoint;
    if (typeof endpoint !== 'string') return 'expected {endpoint}';
    this.save({ ...this.stored, subscriptions: this.stored.subscriptions.filter((s) => s.endpoint !== endpoint) });
    return null;
  }

  /** Sends `message` to every subscription at once; resolves when each has answered or timed out. */
  async send(message: PushMessage): Promise<void> {
    const payload = Buffer.from(JSON.stringify(message));
    const post = this.deps.post ?? fetch;
    await Promise.all(this.stored.subscriptions.map(async (sub) => {
      const host = new URL(sub.endpoint).host;
      try {
        const res = await post(sub.endpoint, {
          method: 'POST',
          headers: {
            Authorization: vapidAuthorization(this.keys, sub.endpoint, 'mailto:fleetcom@localhost', this.deps.now()),
            'Content-Encoding': 'aes128gcm', 'Content-Type': 'application/octet-stream', TTL: '3600', Urgency: 'high', Topic: message.tag.slice(0, 32).replace(/[^A-Za-z0-9_-]/g, '-'),
          },
          body: encryptPush(payload, Buffer.from(sub.keys.p256dh, 'base64url'), Buffer.from(sub.keys.auth, 'base64url')),
          signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
          redirect: 'error',
        });
        if (res.status === 404 || res.status === 410) {
          this.deps.log(`push: ${host} says a subscription is gone (${res.status}); dropped`);
          this.save({ ...this.stored, subscriptions: this.stored.subscriptions.filter((s) => s.endpoint !== sub.endpoint) });
        } else if (!res.ok) this.deps.log(`push: ${host} refused an alert (${res.status})`);
      } catch (error) {
        this.deps.log(`push: ${host}: ${(error as Error).message}`);
      }
    }));
  }

  private save(next: Stored): void {
    this.stored = next;
    writeFileAtomicSync(this.deps.file, `${JSON.stringify(next, null, 2)}\n`);
  }
}

/** The file's keys and subscriptions, made when missing; an unreadable file is kept aside and started anew. */
function load(file: string): Stored {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
    const fresh = { vapid: newVapidJwk(), subscriptions: [] };
    writeFileAtomicSync(file, `${JSON.stringify(fresh, null, 2)}\n`);
    return fresh;
  }
  const doc = JSON.parse(text) as Partial<Stored>;
  vapidKeys(doc.vapid ?? {});
  const subscriptions = (Array.isArray(doc.subscriptions) ? doc.subscriptions : []).flatMap((s) => {
    const sub = readSubscription(s);
    return typeof sub === 'string' ? [] : [{ ...sub, addedAt: String((s as { addedAt?: unknown }).addedAt ?? '') }];
  });
  return { vapid: doc.vapid!, subscriptions };
}
