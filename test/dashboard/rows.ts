// Fixed fleet states for the dashboard's unit tests.
import type { Row } from '../../src/dashboard/model.js';
import { initialUi, type Ui } from '../../src/dashboard/model.js';

export const HOME = '/home/ada';

export function row(id: number, fields: Partial<Row> = {}): Row {
  const command = fields.command ?? `cmd${id}`;
  return {
    id, run: 0, state: 'running', exitStatus: null, tagged: false, label: fields.name ?? command, name: null, command,
    group: null, cwd: `${HOME}/src/app`, line: '', ageMs: 3_000, windowId: `@${id}`, paneId: `%${id}`, attention: null, since: null, ...fields,
  };
}

/** Two running (one tagged), one idle, three done — the README's fleet. */
export const fleet: Row[] = [
  row(1, { command: 'claude', line: '● Edited src/api/routes.ts (+12 -3)', tagged: true, ageMs: 4_000 }),
  row(2, { command: 'npm run dev', name: 'web', line: 'ready in 412 ms', group: 'frontend', cwd: `${HOME}/src/web`, ageMs: 65_000 }),
  row(3, { command: 'codex', state: 'idle', line: '› Ask Codex to do anything', group: 'backend', ageMs: 12_000 }),
  row(4, { command: 'npm test', state: 'exited', exitStatus: 0, line: 'Tests  42 passed (42)', group: 'backend', ageMs: 7_200_000 }),
  row(5, { command: 'grok', state: 'exited', exitStatus: 1, line: 'error: rate limited', ageMs: 300_000, cwd: '/srv/data' }),
  row(6, { command: 'sleep 100', state: 'exited', exitStatus: null, line: '', ageMs: 90_000 }),
];

export function ui(fields: Partial<Ui> = {}): Ui {
  return { ...initialUi, ...fields };
}
