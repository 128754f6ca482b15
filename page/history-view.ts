// A task's directory's past conversations (`fleetcom history --cwd`), newest first, each with
// Resume (`fleetcom resume`: a new task, or the one that already has it open).
import { api, ApiError } from './api.js';
import { ageText, h } from './dom.js';

interface HistoryRow {
  agent: string;
  id: string;
  title: string | null;
  firstPrompt: string | null;
  updatedAt: string;
  messages: number | null;
  heldBy: unknown;
}

export function historyView(taskId: number, readOnly: boolean, opened: (task: number) => void): HTMLElement {
  const root = h('div', { class: 'history' }, h('p', { class: 'note' }, 'Reading the agents\' stores…'));
  void api<HistoryRow[]>('GET', `/api/tasks/${taskId}/history`).then((rows) => {
    const now = Date.now();
    root.replaceChildren(rows.length === 0 ? h('p', { class: 'note' }, 'No past conversation in this directory.') : '');
    for (const row of rows) {
      const status = h('span', { class: 'note' });
      const resume = h('button', { class: 'primary', disabled: readOnly }, row.heldBy ? 'Open' : 'Resume');
      resume.addEventListener('click', () => {
        resume.disabled = true;
        void api<{ task: number }>('POST', `/api/history/${encodeURIComponent(row.id)}/resume`).then((r) => opened(r.task)).catch((e: unknown) => {
          status.textContent = e instanceof ApiError ? e.message : String(e);
          resume.disabled = false;
        });
      });
      root.append(h('div', { class: 'row' },
        h('div', {},
          h('div', { class: 'title' }, row.title ?? row.firstPrompt ?? row.id),
          h('div', { class: 'meta' }, `${row.agent} · ${ageText(Date.parse(row.updatedAt), now)} ago · ${row.messages ?? '?'} messages · ${row.id}`),
          status),
        resume));
    }
  }).catch((e: unknown) => root.replaceChildren(h('p', { class: 'note error' }, e instanceof ApiError ? e.message : String(e))));
  return root;
}
