import { describe, expect, it } from 'vitest';
import type { RecipeTask } from '../../../src/control/protocol.js';
import { RECOVERY_DEBOUNCE_MS, RECOVERY_INTERVAL_MS, RecoveryWriter, type Timers } from '../../../src/fleet/recovery/recovery-writer.js';

// The writer's schedule under a fake clock: nothing here sleeps.

class FakeClock implements Timers {
  now = 0;
  private next = 1;
  private readonly due = new Map<number, { at: number; fn: () => void; every: number | null }>();

  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.next++;
    this.due.set(id, { at: this.now + ms, fn, every: null });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.due.delete(handle as number);
  }
  setInterval(fn: () => void, ms: number): unknown {
    const id = this.next++;
    this.due.set(id, { at: this.now + ms, fn, every: ms });
    return id;
  }
  clearInterval(handle: unknown): void {
    this.due.delete(handle as number);
  }
  /** Moves time forward, firing what falls due in order, and lets the writes settle. */
  async advance(ms: number): Promise<void> {
    const end = this.now + ms;
    for (;;) {
      const [id, timer] = [...this.due].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0] ?? [];
      if (id === undefined || timer === undefined) break;
      this.now = timer.at;
      if (timer.every === null) this.due.delete(id);
      else timer.at += timer.every;
      timer.fn();
      await settle();
    }
    this.now = end;
    await settle();
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

const task = (cmd: string, cwd = '/home/ann/w'): RecipeTask => ({ cwd, cmd, name: null, group: null });

function setup(initial: RecipeTask[] = [], failWrite: () => boolean = () => false) {
  const clock = new FakeClock();
  const fleet = { tasks: initial };
  const writes: Array<{ file: string; text: string; at: number }> = [];
  const prunes: number[] = [];
  const logs: string[] = [];
  const writer = new RecoveryWriter({
    tasks: () => fleet.tasks,
    sessionDir: '/home/ann/.config/fleetcom/sessions',
    startedAt: new Date('2026-11-29T19:30:05Z'),
    pid: 4242,
    home: '/home/ann',
    log: (line) => logs.push(line),
    timers: clock,
    write: async (file, text) => {
      if (failWrite()) throw new Error('disk full');
      writes.push({ file, text, at: clock.now });
    },
    prune: async () => {
      prunes.push(clock.now);
    },
  });
  const docs = () => writes.map((w) => JSON.parse(w.text) as { name: string; closed?: boolean; dirs: Record<string, string[]> });
  return { clock, fleet, writes, prunes, logs, writer, docs };
}

describe('RecoveryWriter', () => {
  it('writes its own file about 2 s after the first change, however many changes follow', async () => {
    const { clock, fleet, writes, writer, docs } = setup([task('claude')]);
    writer.changed();
    await clock.advance(1_000);
    fleet.tasks = [task('claude'), task('codex')];
    writer.changed();
    await clock.advance(RECOVERY_DEBOUNCE_MS - 1_001);
    expect(writes).toEqual([]);
    await clock.advance(1);
    expect(writes.map((w) => [w.file, w.at])).toEqual([['/home/ann/.config/fleetcom/sessions/recovery/20261129-193005-4242.json', 2_000]]);
    expect(docs()[0]).toEqual({ version: 1, name: 'autosaved 2026-11-29 19:30', dirs: { '~/w': ['claude', 'codex'] } });
  });

  it('rewrites every 60 s only when the content changed (an id known later)', async () => {
    const { clock, fleet, writes, writer } = setup([task('claude')]);
    writer.start();
    writer.changed();
    await clock.advance(RECOVERY_DEBOUNCE_MS);
    expect(writes).toHaveLength(1);
    await clock.advance(RECOVERY_INTERVAL_MS);
    expect(writes).toHaveLength(1);
    fleet.tasks = [task("claude --resume 'c8c4a5cc-0b32-4ba0-a6b4-6ed08c218e0d'")];
    await clock.advance(RECOVERY_INTERVAL_MS);
    expect(writes).toHaveLength(2);
    expect(writes[1]?.at).toBe(2 * RECOVERY_INTERVAL_MS); // the interval runs from start()
  });

  it('skips an empty fleet and keeps the last snapshot when the fleet empties', async () => {
    const { clock, fleet, writes, writer } = setup([]);
    writer.start();
    writer.changed();
    await clock.advance(RECOVERY_INTERVAL_MS * 2);
    expect(writes).toEqual([]);
    fleet.tasks = [task('grok')];
    writer.changed();
    await clock.advance(RECOVERY_DEBOUNCE_MS);
    fleet.tasks = [];
    writer.changed();
    await clock.advance(RECOVERY_INTERVAL_MS * 2);
    expect(writes).toHaveLength(1);
  });

  it('prunes after its first write only', async () => {
    const { clock, fleet, prunes, writer } = setup([task('a')]);
    writer.changed();
    await clock.advance(RECOVERY_DEBOUNCE_MS);
    fleet.tasks = [task('b')];
    writer.changed();
    await clock.advance(RECOVERY_DEBOUNCE_MS);
    expect(prunes).toEqual([RECOVERY_DEBOUNCE_MS]);
  });

  it('close(true) writes at once, marked closed, and stops every timer', async () => {
    const { clock, fleet, writer, docs, writes } = setup([task('codex')]);
    writer.start();
    writer.changed();
    await writer.close(true);
    expect(docs()).toEqual([{ version: 1, name: 'autosaved 2026-11-29 19:30', closed: true, dirs: { '~/w': ['codex'] } }]);
    fleet.tasks = [task('other')];
    writer.changed();
    await writer.flush();
    await clock.advance(RECOVERY_INTERVAL_MS * 3);
    expect(writes).toHaveLength(1);
  });

  it('close(true) on a fleet emptied meanwhile marks its last snapshot closed; a never-used one writes nothing', async () => {
    const used = setup([task('claude')]);
    used.writer.changed();
    await used.clock.advance(RECOVERY_DEBOUNCE_MS);
    used.fleet.tasks = [];
    await used.writer.close(true);
    expect(used.docs().at(-1)).toMatchObject({ closed: true, dirs: { '~/w': ['claude'] } });

    const unused = setup([]);
    await unused.writer.close(true);
    expect(unused.writes).toEqual([]);
  });

  it('close(false) flushes a pending change without marking it closed', async () => {
    const { writer, docs } = setup([task('claude')]);
    writer.changed();
    await writer.close(false);
    expect(docs()).toEqual([{ version: 1, name: 'autosaved 2026-11-29 19:30', dirs: { '~/w': ['claude'] } }]);
  });

  it('logs a failed write and tries again at the next change', async () => {
    let fail = true;
    const { clock, writer, logs, writes } = setup([task('claude')], () => fail);
    writer.changed();
    await clock.advance(RECOVERY_DEBOUNCE_MS);
    expect(logs).toEqual(['recovery snapshot not written: disk full']);
    fail = false;
    writer.changed();
    await clock.advance(RECOVERY_DEBOUNCE_MS);
    expect(writes).toHaveLength(1);
  });
});
