// Pushes under the notify rules (delay, cooldown, not while watched), and what a device
// receives: decrypted here with the browser's own keys, as its push service hands it over.
import { createDecipheriv, createECDH, createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LsRecord } from '../../src/control/replies.js';
import { PushAlerts } from '../../src/web/push/push-alerts.js';
import { WebPush } from '../../src/web/push/web-push.js';

const record = (id: number, attention: LsRecord['attention'], message: string | null = null): LsRecord => ({
  id, run: 0, cwd: '/w', command: 'claude', name: `agent${id}`, group: null, tagged: false, state: 'running', exitStatus: null, killed: false, harness: 'claude',
  conversationId: null, idSource: null, resumeCommand: 'claude', parkedJob: null, windowId: `@${id}`, paneId: `%${id}`, spawnedAt: '2026-01-01T00:00:00.000Z',
  lastOutputAt: '2026-01-01T00:00:00.000Z', attention, attentionSince: null, attentionMessage: message,
});

function world(opts: { page?: Set<number>; tmux?: Array<{ windowId: string; activityAt: number }> } = {}) {
  let now = 1_000_000;
  let tasks: LsRecord[] = [];
  const sent: Array<{ title: string; body: string; task: number | null }> = [];
  const alerts = new PushAlerts({ delaySeconds: 5, cooldownSeconds: 60, whenWatching: false, targets: [] }, {
    tasks: async () => tasks,
    watchedOnPage: (task) => opts.page?.has(task) ?? false,
    clients: async () => opts.tmux ?? [],
    send: async (m) => void sent.push(m),
    active: () => true,
    now: () => now,
    log: () => {},
  });
  return {
    sent,
    set: (next: LsRecord[]) => (tasks = next),
    at: async (ms: number) => {
      now = 1_000_000 + ms;
      await alerts.tick();
    },
  };
}

describe('push alerts under the notify rules', () => {
  it('pushes a wait that lasts past the delay, with the agent\'s words, once per cooldown', async () => {
    const w = world();
    w.set([record(1, 'working')]);
    await w.at(0);
    w.set([record(1, 'permission', 'Claude needs your permission to use Bash')]);
    await w.at(1000);
    await w.at(5000);
    expect(w.sent).toEqual([]);
    await w.at(6100);
    expect(w.sent).toEqual([{ title: 'fleetcom: agent1', body: 'Claude needs your permission to use Bash', task: 1, tag: 'task-1' }]);
    // Working again and back within the cooldown: nothing more.
    w.set([record(1, 'working')]);
    await w.at(7000);
    w.set([record(1, 'permission')]);
    await w.at(8000);
    await w.at(20_000);
    expect(w.sent).toHaveLength(1);
  });

  it('pushes nothing for a wait answered within the delay, nor one already there when the server started', async () => {
    const w = world();
    w.set([record(1, 'waiting'), record(2, 'working')]);
    await w.at(0);
    w.set([record(1, 'waiting'), record(2, 'waiting')]);
    await w.at(1000);
    w.set([record(1, 'waiting'), record(2, 'working')]);
    await w.at(3000);
    await w.at(30_000);
    expect(w.sent).toEqual([]);
  });

  it('pushes nothing for a task someone watches: its terminal on a shown page, or its window in tmux with recent input', async () => {
    for (const opts of [{ page: new Set([1]) }, { tmux: [{ windowId: '@1', activityAt: 1_000_000 }] }]) {
      const w = world(opts);
      w.set([record(1, 'working'), record(2, 'working')]);
      await w.at(0);
      w.set([record(1, 'waiting'), record(2, 'waiting')]);
      await w.at(100);
      await w.at(6000);
      expect(w.sent.map((m) => m.task)).toEqual([2]);
    }
  });
});

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** What the browser does with a push (RFC 8291): its private key and auth secret open the body. */
function decrypt(body: Buffer, ua: ReturnType<typeof createECDH>, auth: Buffer): string {
  const hmac = (k: Buffer, d: Buffer) => createHmac('sha256', k).update(d).digest();
  const expand = (prk: Buffer, info: Buffer, n: number) => hmac(prk, Buffer.concat([info, Buffer.from([1])])).subarray(0, n);
  const salt = body.subarray(0, 16);
  const idlen = body[20]!;
  const asPublic = body.subarray(21, 21 + idlen);
  const ikm = expand(hmac(auth, ua.computeSecret(asPublic)), Buffer.concat([Buffer.from('WebPush: info\0'), ua.getPublicKey(), asPublic]), 32);
  const prk = hmac(salt, ikm);
  const decipher = createDecipheriv('aes-128-gcm', expand(prk, Buffer.from('Content-Encoding: aes128gcm\0'), 16), expand(prk, Buffer.from('Content-Encoding: nonce\0'), 12));
  const sealed = body.subarray(21 + idlen);
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  const plain = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]);
  expect(plain.at(-1)).toBe(2);
  return plain.subarray(0, -1).toString();
}

describe('a push as the device gets it', () => {
  it('keeps its keys 0600, refuses a foreign endpoint, and sends each subscription a message only its browser can read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fleetcom-push-'));
    dirs.push(dir);
    const posts: Array<{ url: string; init: RequestInit }> = [];
    const post = (async (url: string, init: RequestInit) => {
      posts.push({ url, init });
      return new Response(null, { status: url.endsWith('/gone') ? 410 : 201 });
    }) as unknown as typeof fetch;
    const push = new WebPush({ file: join(dir, 'push.json'), now: () => 1_700_000_000_000, log: () => {}, post });
    expect(statSync(join(dir, 'push.json')).mode & 0o777).toBe(0o600);
    const ua = createECDH('prime256v1');
    ua.generateKeys();
    const auth = Buffer.alloc(16, 7);
    const keys = { p256dh: ua.getPublicKey().toString('base64url'), auth: auth.toString('base64url') };
    expect(await push.subscribe({ endpoint: 'https://127.0.0.1:8443/x', keys })).toMatch(/not a browser's push service/);
    expect(await push.subscribe({ endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys })).toBeNull();
    expect(await push.subscribe({ endpoint: 'https://fcm.googleapis.com/fcm/send/gone', keys })).toBeNull();
    expect(push.count).toBe(2);
    await push.send({ title: 'fleetcom: agent1', body: 'needs your permission', task: 1, tag: 'task-1' });
    expect(posts.map((p) => p.url)).toEqual(['https://fcm.googleapis.com/fcm/send/abc', 'https://fcm.googleapis.com/fcm/send/gone']);
    const headers = posts[0]!.init.headers as Record<string, string>;
    expect(headers['Content-Encoding']).toBe('aes128gcm');
    expect(headers.Authorization).toMatch(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${push.publicKey()}$`));
    expect(JSON.parse(decrypt(posts[0]!.init.body as Buffer, ua, auth))).toEqual({ title: 'fleetcom: agent1', body: 'needs your permission', task: 1, tag: 'task-1' });
    // The service said the second one is gone: it is dropped, and stays dropped for a new server.
    expect(push.count).toBe(1);
    expect(new WebPush({ file: join(dir, 'push.json'), now: Date.now, log: () => {} }).count).toBe(1);
  });
});
