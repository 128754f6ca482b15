// What an alert says: one task's sentence, or one line naming every task due at once, and the
// same facts as structured fields for the targets that take them (webhook, command variables).
import type { AlertSubject } from './alert-rules.js';

export interface AlertItem extends AlertSubject {
  taskId: number;
  label: string;
  /** What the agent said (the question, the permission), or fleetcom's sentence for the state. */
  message: string;
  /** The machine the task runs on: this one's name, or the configured host's. */
  host: string;
  /** True for a task of another host (reached over ssh). */
  remote: boolean;
  directory: string;
  conversation: string | null;
  /** This machine's tasks only: where the task is in tmux (the watched check, the command's variables). */
  windowId: string | null;
  paneId: string | null;
}

export interface Alert {
  title: string;
  /** One line: the task's message, or every task named. */
  text: string;
  items: AlertItem[];
}

/** The longest text a target gets: a phone's notification shows a few lines at most. */
const TEXT_MAX = 500;

export function composeAlert(items: AlertItem[]): Alert {
  const [first] = items;
  if (first === undefined) throw new Error('an alert names at least one task');
  const where = (item: AlertItem) => (item.remote ? ` on ${item.host}` : '');
  if (items.length === 1) {
    return { title: `fleetcom: ${first.label}${where(first)}`, text: clip(first.message), items };
  }
  const names = items.map((item) => `${item.label}${where(item)}${item.attention === 'waiting' ? '' : ` (${item.attention})`}`);
  return { title: `fleetcom: ${items.length} tasks need you`, text: clip(`${items.length} tasks need you: ${names.join(', ')}`), items };
}

/** The webhook's body: the first (most urgent) task's fields at the top, every task in `tasks`. */
export function webhookBody(alert: Alert): Record<string, unknown> {
  const tasks = alert.items.map((item) => ({
    task: item.taskId,
    label: item.label,
    attention: item.attention,
    message: item.message,
    host: item.host,
    directory: item.directory,
    conversation: item.conversation,
  }));
  return { title: alert.title, text: alert.text, ...tasks[0], tasks };
}

function clip(text: string): string {
  return text.length > TEXT_MAX ? `${text.slice(0, TEXT_MAX - 1)}…` : text;
}
