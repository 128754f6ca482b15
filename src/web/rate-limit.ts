// A token bucket: `rate` units a second, up to `burst` saved. Requests per peer and bytes of
// terminal input per socket each get one.
export class Bucket {
  private level: number;
  private at: number;

  constructor(private readonly rate: number, private readonly burst: number, now: number) {
    this.level = burst;
    this.at = now;
  }

  /** Takes `cost` when there is that much; false (and nothing taken) when there is not. */
  take(cost: number, now: number): boolean {
    this.level = Math.min(this.burst, this.level + ((now - this.at) / 1000) * this.rate);
    this.at = now;
    if (cost > this.level) return false;
    this.level -= cost;
    return true;
  }
}

/** One bucket per key, the least recently used dropped past `max`. */
export class Buckets {
  private readonly map = new Map<string, Bucket>();

  constructor(private readonly rate: number, private readonly burst: number, private readonly max = 10_000) {}

  take(key: string, cost: number, now: number): boolean {
    const bucket = this.map.get(key) ?? new Bucket(this.rate, this.burst, now);
    this.map.delete(key);
    this.map.set(key, bucket);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
    return bucket.take(cost, now);
  }
}
