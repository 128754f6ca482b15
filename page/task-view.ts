// One task: what it asks (a question's or a permission's text), its live terminal, the key bar
// (Esc, Tab, Ctrl-C, arrows, Enter; approve and deny while it asks a permission), the message
// box (`send`, its verdict shown) and the reply (`output`), and its directory's history.
import { api, ApiError, type TaskView } from './api.js';
import { h } from './dom.js';
import { LiveTerminal } from './terminal.js';

export interface TaskPage {
  el: HTMLElement;
  /** The list was read again: the task as it is now (null: gone). */
  update(t: TaskView | null): void;
  dispose(): void;
}

const KEYS: Array<[string, string, string]> = [
  ['Esc', '\x1b', 'Escape'], ['Tab', '\t', 'Tab'], ['^C', '\x03', 'Ctrl-C'],
  ['←', '\x1b[D', 'Left'], ['↑', '\x1b[A', 'Up'], ['↓', '\x1b[B', 'Down'], ['→', '\x1b[C', 'Right'], ['⏎', '\r', 'Enter'],
];

interface SendVerdict {
  verdict?: string;
  turn?: number | null;
  via?: string;
  error?: string;
}

interface Output {
  turn?: number | null;
  text?: string | null;
  source?: string;
}

export function taskPage(task: TaskView, readOnly: boolean, link: (up: boolean) => void, openHistory: () => void): TaskPage {
  const asking = h('div', { class: 'asking', hidden: true });
  const wrap = h('div', { class: 'term-wrap' });
  const notice = h('p', { class: 'note', hidden: true });
  const keys = h('div', { class: 'keys', role: 'toolbar', 'aria-label': 'keys' });
  const approve = h('button', { class: 'approve', hidden: true, 'aria-label': 'approve' }, 'Approve');
  const deny = h('button', { class: 'deny', hidden: true, 'aria-label': 'deny' }, 'Deny');
  const box = h('textarea', { rows: '2', placeholder: `Message ${task.label}`, autocapitalize: 'sentences', autocomplete: 'off', spellcheck: 'false', 'aria-label': 'message' });
  const sendButton = h('button', { class: 'primary' }, 'Send');
  const verdict = h('p', { class: 'verdict', hidden: true });
  const reply = h('div', { class: 'reply', hidden: true });
  let current = task;

  const term = new LiveTerminal(wrap, task.id, {
    link,
    notice: (text) => {
      notice.hidden = text === '';
      notice.textContent = text;
    },
    hello: (info) => {
      if (info.readOnly) for (const b of [...keys.querySelectorAll('button'), sendButton, box]) (b as HTMLButtonElement).disabled = true;
    },
  });
  approve.addEventListener('click', () => current.keys && term.input(current.keys.approve));
  deny.addEventListener('click', () => current.keys && term.input(current.keys.deny));
  keys.append(approve, deny, ...KEYS.map(([label, bytes, name]) => h('button', { 'aria-label': name, onclick: () => term.input(bytes) }, label)));
  // A desktop's pane is wide: the whole of it fits a phone only small; this shows it at the font's size, sideways.
  const zoom = h('button', { class: 'zoom', 'aria-label': 'zoom' }, '1:1');
  zoom.addEventListener('click', () => {
    zoom.textContent = term.toggleZoom() === 'fit' ? '1:1' : 'Fit';
  });
  keys.append(zoom);

  let poll: number | null = null;
  const showReply = (out: Output) => {
    reply.hidden = false;
    reply.replaceChildren(h('h3', {}, `reply${out.turn == null ? '' : ` · turn ${out.turn}`}${out.source ? ` · ${out.source}` : ''}`), out.text ?? '(no text)');
  };
  /** The reply of `turn`, asked for until it is there (or the page moves on). */
  const awaitReply = (turn: number | null, deadline: number) => {
    if (poll !== null) clearTimeout(poll);
    const ask = () => {
      poll = null;
      void api<Output>('GET', `/api/tasks/${task.id}/output`).then((out) => {
        if (out.text != null && (turn === null || (out.turn ?? 0) >= turn)) return showReply(out);
        if (Date.now() < deadline) poll = window.setTimeout(ask, 1_500);
      }).catch(() => {
        if (Date.now() < deadline) poll = window.setTimeout(ask, 3_000);
      });
    };
    ask();
  };

  const send = async () => {
    const text = box.value;
    if (text.trim() === '') return;
    sendButton.disabled = true;
    verdict.hidden = false;
    verdict.replaceChildren('sending…');
    try {
      const v = await api<SendVerdict>('POST', `/api/tasks/${task.id}/send`, { text });
      verdict.replaceChildren('verdict: ', h('b', { class: 'verdict-word' }, v.verdict ?? '?'), v.turn == null ? '' : ` · turn ${v.turn}`, v.via ? ` · via ${v.via}` : '');
      if (v.verdict === 'submitted' || v.verdict === 'typed' || v.verdict === 'unconfirmed') {
        box.value = '';
        awaitReply(v.turn ?? null, Date.now() + 30 * 60_000);
      }
    } catch (error) {
      verdict.replaceChildren(h('span', { class: 'error' }, error instanceof ApiError ? error.message : String(error)));
    } finally {
      sendButton.disabled = readOnly;
    }
  };
  sendButton.addEventListener('click', () => void send());
  box.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) void send();
  });

  const update = (t: TaskView | null) => {
    if (t === null) {
      notice.hidden = false;
      notice.textContent = 'This task is gone from the fleet.';
      return;
    }
    current = t;
    const waits = t.attention === 'permission' || t.attention === 'waiting';
    asking.hidden = !waits;
    asking.className = `asking ${t.attention ?? ''}`;
    asking.textContent = waits ? t.text : '';
    approve.hidden = deny.hidden = !(t.attention === 'permission' && t.keys !== null) || readOnly;
  };
  update(task);
  if (readOnly) {
    box.disabled = sendButton.disabled = true;
    box.placeholder = 'read-only: this server takes no messages';
  }
  // The last reply, where there is one to ask for (a turn ended): no request that can only fail.
  if (task.harness !== null && (task.turn ?? 0) > 0) void api<Output>('GET', `/api/tasks/${task.id}/output`).then((out) => out.text != null && showReply(out)).catch(() => {});

  const el = h('div', { class: 'task-page' },
    h('div', { class: 'main' }, asking, wrap, notice, keys),
    h('div', { class: 'side' },
      h('div', { class: 'compose' }, box, sendButton), verdict, reply,
      h('div', { class: 'links' }, h('button', { onclick: openHistory }, 'History & resume'))));
  requestAnimationFrame(() => term.fit());
  return {
    el,
    update,
    dispose: () => {
      if (poll !== null) clearTimeout(poll);
      term.dispose();
    },
  };
}
