// When a task that needs the user raises an alert: only if it still needs them after a delay
// (an agent answered within seconds pages nobody), at most once per task and kind within a
// cooldown, not while the user is looking at its window, and every task due at the same
// moment in one alert. Pure: the caller brings the clock and says which tasks are watched.
export interface AlertRuleSettings {
  delayMs: number;
  cooldownMs: number;
  /** Alert even for a task whose window the user is looking at. */
  whenWatching: boolean;
}

/** What the rules need of a task that needs the user; the rest travels with it to the targets. */
export interface AlertSubject {
  /** Unique across hosts: `<host or empty>/<task id>`. */
  key: string;
  /** What the task waits for: the cooldown is per kind, so a question after a turn's end alerts again. */
  attention: AlertKind;
}

/** A task's attention as alerts tell it: a question is a wait of its own kind. */
export type AlertKind = 'waiting' | 'question' | 'permission';

const URGENCY: Record<AlertKind, number> = { permission: 0, question: 1, waiting: 2 };

interface Pending<S> {
  subject: S;
  since: number;
}

/** Why a due task raised nothing, for the log. */
export interface Skipped<S> {
  subject: S;
  why: 'watched' | 'cooldown';
}

export class AlertRules<S extends AlertSubject> {
  private readonly pending = new Map<string, Pending<S>>();
  /** Per task, when each kind last alerted. */
  private readonly last = new Map<string, Map<AlertKind, number>>();

  constructor(private readonly rules: AlertRuleSettings) {}

  /**
   * A task's attention changed. `subject` null: it works again, ended or left (whatever was
   * pending is dropped); `news` false: a state that needs the user but is nobody's news (a
   * fresh prompt, a replay), which drops a pending alert too. A task already pending keeps the
   * time its wait began: waiting then permission is still one wait.
   */
  changed(key: string, subject: S | null, news: boolean, now: number): void {
    if (subject === null || !news) {
      this.pending.delete(key);
      return;
    }
    const known = this.pending.get(key);
    this.pending.set(key, { subject, since: known?.since ?? now });
  }

  forget(key: string): void {
    this.pending.delete(key);
    this.last.delete(key);
  }

  /** When the next pending alert falls due (ms since epoch), or null when none waits. */
  nextDue(): number | null {
    let next: number | null = null;
    for (const p of this.pending.values()) next = Math.min(next ?? Infinity, p.since + this.rules.delayMs);
    return next;
  }

  /** The subjects due at `now`, without taking them (the caller asks tmux who watches what). */
  due(now: number): S[] {
    return [...this.pending.values()].filter((p) => now - p.since >= this.rules.delayMs).map((p) => p.subject);
  }

  /**
   * Takes every alert due at `now`: those to send together, and those the rules keep quiet.
   * A watched one is dropped, not postponed: the user saw it come.
   */
  take(now: number, watched: (subject: S) => boolean): { send: S[]; skipped: Skipped<S>[] } {
    const send: S[] = [];
    const skipped: Skipped<S>[] = [];
    for (const subject of this.due(now)) {
      this.pending.delete(subject.key);
      if (!this.rules.whenWatching && watched(subject)) {
        skipped.push({ subject, why: 'watched' });
        continue;
      }
      const last = this.last.get(subject.key) ?? new Map<AlertKind, number>();
      const at = last.get(subject.attention);
      if (at !== undefined && now - at < this.rules.cooldownMs) {
        skipped.push({ subject, why: 'cooldown' });
        continue;
      }
      last.set(subject.attention, now);
      this.last.set(subject.key, last);
      send.push(subject);
    }
    // Permissions first, then questions, then turns ended: the order the alert names them in.
    send.sort((a, b) => URGENCY[a.attention] - URGENCY[b.attention]);
    return { send, skipped };
  }
}
