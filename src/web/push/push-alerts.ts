// When `fleetcom web` pushes: a task that comes to need the user (waiting, a question, a
// permission) goes through the same rules as the supervisor's alerts (fleet/attention/
// alert-rules.ts, with config `notify`'s delay, cooldown and whenWatching) and, once due, to
// every subscribed device — unless someone watches it: a page showing its terminal, or a tmux
// client on its window with recent input. The fleet is read with `ls` once a second, only
// while a device is subscribed.
import type { LsRecord } from '../../control/replies.js';
import type { NotifySettings } from '../../config/notify-schema.js';
import { AlertRules, type AlertKind, type AlertSubject } from '../../fleet/attention/alert-rules.js';

export const POLL_MS = 1_000;
/** A tmux client whose last input is older than this is not someone looking (alerts.ts's rule). */
const WATCHING_INPUT_MS = 120_000;

interface Item extends AlertSubject {
  task: number;
  label: string;
  text: string;
  windowId: string;
}

export interface PushAlertsDeps {
  tasks: () => Promise<LsRecord[]>;
  /** Someone has this task's terminal open on a page that is shown. */
  watchedOnPage: (task: number) => boolean;
  /** The windows tmux clients show, with their last input (ms since epoch). */
  clients: () => Promise<Array<{ windowId: string; activityAt: number }>>;
  send: (message: { title: string; body: string; task: number | null; tag: string }) => Promise<void>;
  /** Whether any device is subscribed (nothing is polled while none is). */
  active: () => boolean;
  now: () => number;
  log: (line: string) => void;
}

export class PushAlerts {
  private readonly rules: AlertRules<Item>;
  private readonly seen = new Map<number, AlertKind | null>();
  private timer: NodeJS.Timeout | null = null;

  constructor(settings: NotifySettings, private readonly deps: PushAlertsDeps) {
    this.rules = new AlertRules({ delayMs: settings.delaySeconds * 1000, cooldownMs: settings.cooldownSeconds * 1000, whenWatching: settings.whenWatching });
  }

  start(): void {
    const loop = () => {
      this.timer = setTimeout(() => void this.tick().finally(loop), POLL_MS);
      this.timer.unref();
    };
    loop();
  }

  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** One round: read the fleet, feed the rules, send what fell due. */
  async tick(): Promise<void> {
    if (!this.deps.active()) return;
    let tasks: LsRecord[];
    try {
      tasks = await this.deps.tasks();
    } catch {
      return;
    }
    const now = this.deps.now();
    const here = new Set<number>();
    for (const t of tasks) {
      here.add(t.id);
      const kind = kindOf(t);
      const before = this.seen.get(t.id);
      this.seen.set(t.id, kind);
      if (kind === before) continue;
      const label = t.name ?? t.command ?? `task ${t.id}`;
      const item: Item | null = kind === null ? null : {
        key: String(t.id), attention: kind, task: t.id, label, windowId: t.windowId,
        text: t.attentionMessage ?? (kind === 'permission' ? `${label} needs your permission` : `${label} is waiting for you`),
      };
      // A task first seen already waiting (the server just started) is nobody's news.
      this.rules.changed(String(t.id), item, before !== undefined, now);
    }
    for (const id of [...this.seen.keys()]) {
      if (!here.has(id)) {
        this.seen.delete(id);
        this.rules.forget(String(id));
      }
    }
    if (this.rules.due(now).length === 0) return;
    const windows = await this.watchedWindows(now);
    const { send, skipped } = this.rules.take(now, (item) => this.deps.watchedOnPage(item.task) || windows.has(item.windowId));
    for (const s of skipped) this.deps.log(`push: task ${s.subject.task} not pushed (${s.why === 'watched' ? 'someone is watching it' : 'within the cooldown'})`);
    if (send.length === 0) return;
    const first = send[0]!;
    const message = send.length === 1
      ? { title: `fleetcom: ${first.label}`, body: first.text, task: first.task, tag: `task-${first.task}` }
      : { title: `fleetcom: ${send.length} tasks need you`, body: send.map((i) => `${i.label}: ${i.text}`).join('\n'), task: first.task, tag: 'fleet' };
    this.deps.log(`push: ${message.title}`);
    await this.deps.send(message);
  }

  private async watchedWindows(now: number): Promise<Set<string>> {
    try {
      return new Set((await this.deps.clients()).filter((c) => now - c.activityAt <= WATCHING_INPUT_MS).map((c) => c.windowId));
    } catch {
      return new Set();
    }
  }
}

function kindOf(t: LsRecord): AlertKind | null {
  if (t.state === 'exited') return null;
  if (t.attention === 'permission') return 'permission';
  if (t.attention !== 'waiting') return null;
  // A question's text is its own kind of wait (the cooldown is per kind), as the supervisor's alerts tell it.
  return t.attentionMessage != null && !/ is waiting for you$/.test(t.attentionMessage) ? 'question' : 'waiting';
}
