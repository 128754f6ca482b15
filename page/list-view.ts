// The fleet: those that need you first, in the dashboard's order; a host's tasks after.
import { ageText, h } from './dom.js';
import type { FleetDoc, TaskView } from './api.js';

export function rowClass(t: TaskView): string {
  if (t.attention === 'permission' || t.attention === 'waiting' || t.attention === 'working') return t.attention;
  if (t.state === 'exited') return t.exitStatus === 0 ? 'ok' : 'failed';
  return t.state;
}

export function listView(doc: FleetDoc, now: number, open: (t: TaskView) => void): HTMLElement {
  const root = h('div', { class: 'list' });
  if (!doc.fleet) root.append(h('p', { class: 'note' }, 'No fleet runs on this machine (start one with ', h('code', {}, 'fleetcom up'), ').'));
  else if (doc.sections.every((s) => s.host !== null)) root.append(h('p', { class: 'note' }, 'The fleet has no tasks yet (', h('code', {}, 'fleetcom run -- claude'), ').'));
  for (const section of doc.sections) {
    const title = section.host === null ? section.title : `${section.host}`;
    root.append(h('section', {},
      h('h2', {}, title, section.note === null ? null : h('span', { class: 'note' }, ` · ${section.note}`)),
      ...section.tasks.map((t) => h('button', { class: `task ${rowClass(t)}`, 'data-task': String(t.id), 'data-host': t.host ?? '', onclick: () => open(t) },
        h('span', { class: 'glyph' }, t.glyph),
        h('span', { class: 'label' }, t.host === null ? `${t.id} ${t.label}` : t.label),
        h('span', { class: 'age' }, ageText(t.since, now)),
        h('span', { class: 'text' }, t.text)))));
  }
  return root;
}

/** A host's task: the page shows no terminal of it, and says how to reach it. */
export function hostTaskView(t: TaskView): HTMLElement {
  return h('div', { class: 'reach' },
    h('p', { class: 'note' }, `${t.label} runs on ${t.host}. `, t.text),
    h('p', { class: 'note' }, 'Its terminal is not shown here; from a terminal, reach it with:'),
    h('p', { class: 'note' }, h('code', {}, t.reach ?? '')),
    h('p', { class: 'note' }, 'or run ', h('code', {}, `fleetcom web`), ` on ${t.host} itself.`));
}
