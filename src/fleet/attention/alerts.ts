// The alerts of one supervisor: attention changes (this machine's tasks, and the hosts' through
// the dashboard's feed) go through the rules, and what falls due goes to every target at once.
// Runs on its own timer beside the supervisor's queue: nothing here is awaited by a request,
// and a target's deadline bounds what an alert can cost.
import { hostname } from 'node:os';
import type { NotifySettings } from '../../config/notify-schema.js';
import type { AttentionState } from '../../harness/index.js';
import { labelOf, type Task } from '../supervisor/task.js';
import type { AttentionChange } from './attention.js';
import { composeAlert, type AlertItem } from './alert-message.js';
import { AlertRules, type AlertKind } from './alert-rules.js';
import { AlertTargets, type Target, type TargetDeps } from './alert-targets.js';
import { attentionText } from './notify.js';

/** A client whose last input is older than this is not someone looking at the screen. */
export const WATCHING_INPUT_MS = 120_000;

export interface WatchedClient {
  windowId: string;
  /** ms since epoch of the client's last input. */
  activityAt: number;
}

export interface AlertsDeps extends Omit<TargetDeps, 'log'> {
  now: () => number;
  log: (line: string) => void;
  /** The attached clients of this tmux server: which window each shows, when each last had input. */
  clients: () => Promise<WatchedClient[]>;
  /** A task of this machine's attention now (it may have ended or been removed since): null when none. */
  attentionNow: (taskId: number) => AttentionState | null;
}

/** A remote task needing the user, as the dashboard's host feed sees it. */
export interface RemoteAttention {
  host: string;
  taskId: number;
  label: string;
  attention: 'working' | 'waiting' | 'permission' | null;
  message: string | null;
  directory: string;
  conversation: string | null;
}

export class Alerts {
  private readonly rules: AlertRules<AlertItem>;
  private readonly targets: AlertTargets;
  private timer: NodeJS.Timeout | null = null;
  private firing = false;
  private readonly here = hostname();

  constructor(settings: NotifySettings, extra: readonly Target[], private readonly deps: AlertsDeps) {
    this.rules = new AlertRules({ delayMs: settings.delaySeconds * 1000, cooldownMs: settings.cooldownSeconds * 1000, whenWatching: settings.whenWatching });
    this.targets = new AlertTargets([...extra, ...settings.targets], deps);
  }

  /** One of this machine's tasks changed attention. */
  local(change: AttentionChange): void {
    if (this.targets.size === 0) return;
    this.rules.changed(`/${change.task.id}`, localItem(change, this.here), change.notify, this.deps.now());
    this.schedule();
  }

  /**
   * A host's task as the feed saw it now. The feed polls, so only a change of attention is
   * news; a task first seen already waiting is news too (the host has no other way to say it).
   */
  remote(task: RemoteAttention, previous: RemoteAttention['attention'] | undefined): void {
    if (this.targets.size === 0 || task.attention === previous) return;
    const key = `${task.host}/${task.taskId}`;
    const attention = task.attention;
    const item: AlertItem | null = attention !== 'waiting' && attention !== 'permission' ? null : {
      key, attention, taskId: task.taskId, label: task.label,
      message: task.message ?? (attention === 'permission' ? `${task.label} needs your permission` : `${task.label} is waiting for you`),
      host: task.host, remote: true, directory: task.directory, conversation: task.conversation, windowId: null, paneId: null,
    };
    this.rules.changed(key, item, item !== null, this.deps.now());
    this.schedule();
  }

  forget(taskId: number): void {
    this.rules.forget(`/${taskId}`);
  }

  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (this.firing) return; // fire() schedules again when it is done
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const next = this.rules.nextDue();
    if (next === null) return;
    this.timer = setTimeout(() => void this.fire(), Math.max(0, next - this.deps.now()));
    this.timer.unref();
  }

  private async fire(): Promise<void> {
    this.timer = null;
    this.firing = true;
    try {
      const now = this.deps.now();
      const due = this.rules.due(now);
      for (const item of due) {
        if (!item.remote && kindOf(this.deps.attentionNow(item.taskId)) !== item.attention) this.rules.changed(item.key, null, false, now);
      }
      if (this.rules.due(now).length === 0) return;
      const watched = await this.watchedWindows(now);
      const { send, skipped } = this.rules.take(this.deps.now(), (item) => item.windowId !== null && watched.has(item.windowId));
      for (const s of skipped) this.deps.log(`alert: task ${s.subject.label} not alerted (${s.why === 'watched' ? 'its window is being watched' : 'within the cooldown'})`);
      if (send.length === 0) return;
      const alert = composeAlert(send);
      this.deps.log(`alert: ${alert.text}`);
      // Not awaited by the timer's next round: a slow target must not hold later alerts.
      void this.targets.send(alert);
    } finally {
      this.firing = false;
      this.schedule();
    }
  }

  private async watchedWindows(now: number): Promise<Set<string>> {
    try {
      const clients = await this.deps.clients();
      return new Set(clients.filter((c) => now - c.activityAt <= WATCHING_INPUT_MS).map((c) => c.windowId));
    } catch (error) {
      this.deps.log(`alert: could not ask tmux which windows are watched (${(error as Error).message}); alerting anyway`);
      return new Set();
    }
  }
}

function kindOf(state: AttentionState | null): AlertKind | null {
  if (state === null || (state.attention !== 'waiting' && state.attention !== 'permission')) return null;
  return state.question === true ? 'question' : state.attention;
}

function localItem(change: AttentionChange, host: string): AlertItem | null {
  const { task, state } = change;
  const kind = kindOf(state);
  if (kind === null) return null;
  return {
    key: `/${task.id}`, attention: kind, taskId: task.id, label: labelOf(task), message: attentionText({ task, state }),
    host, remote: false, directory: task.cwd, conversation: conversationOf(task, state),
    windowId: task.windowId, paneId: task.paneId,
  };
}

function conversationOf(task: Task, state: AttentionState): string | null {
  return state.conversation ?? task.tracedId ?? task.pinnedId ?? task.targetId ?? null;
}
