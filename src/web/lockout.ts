// Bad tokens from one peer: the first few are answered at once, then each answer waits longer
// (a guesser gets a handful a second at best), and past the limit the peer is locked out for a
// while, a good token included. Peers are addresses: behind `tailscale serve` every peer is
// 127.0.0.1, so a guesser there locks the proxy out too (docs/web.md says so); a restart of
// `fleetcom web` clears it. Bounded: the oldest peer is forgotten past MAX_PEERS.

export interface LockoutSettings {
  /** Failures answered without delay. */
  free: number;
  /** Failures within the window that lock the peer out. */
  limit: number;
  windowMs: number;
  lockMs: number;
  /** The delay of the first slowed answer; it doubles per failure up to maxDelayMs. */
  delayMs: number;
  maxDelayMs: number;
}

export const LOCKOUT: LockoutSettings = { free: 3, limit: 10, windowMs: 15 * 60_000, lockMs: 15 * 60_000, delayMs: 250, maxDelayMs: 4_000 };

const MAX_PEERS = 10_000;

interface Peer {
  failures: number[];
  lockedUntil: number;
}

export class Lockout {
  private readonly peers = new Map<string, Peer>();

  constructor(private readonly settings: LockoutSettings = LOCKOUT) {}

  lockedOut(peer: string, now: number): boolean {
    return (this.peers.get(peer)?.lockedUntil ?? 0) > now;
  }

  /** Records a bad token; returns how long to wait before answering it. */
  failed(peer: string, now: number): number {
    const s = this.settings;
    const known = this.peers.get(peer) ?? { failures: [], lockedUntil: 0 };
    this.peers.delete(peer);
    known.failures = [...known.failures.filter((t) => now - t < s.windowMs), now];
    if (known.failures.length >= s.limit) known.lockedUntil = now + s.lockMs;
    this.peers.set(peer, known);
    if (this.peers.size > MAX_PEERS) this.peers.delete(this.peers.keys().next().value!);
    const over = known.failures.length - s.free;
    return over <= 0 ? 0 : Math.min(s.maxDelayMs, s.delayMs * 2 ** (over - 1));
  }
}
