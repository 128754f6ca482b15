import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { write } from './fixtures.js';

// The real codex 0.171.0's subagent threads (test/fixtures/codex-subagents/README.md): the
// first records of a user's thread P, its subagent C and C's subagent G, and what the notifier
// got, to lay out in a temp codex home.

const FIXTURES = fileURLToPath(new URL('../fixtures/codex-subagents/', import.meta.url));
const lines = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8').split('\n').filter(Boolean);

export type Head = { payload: Record<string, unknown> & { id: string; cwd: string } };
export const [USER, CHILD, GRANDCHILD] = lines('0.171.0-rollout-heads.jsonl').map((l) => JSON.parse(l) as Head) as [Head, Head, Head];
/** The notifier's payloads in order: the title thread's, P's, C's, G's. */
export const NOTIFY = lines('0.171.0-notify.jsonl');
export const P = USER.payload.id;
export const C = CHILD.payload.id;
export const G = GRANDCHILD.payload.id;
/** The cwd the heads name (the sandbox's project, as recorded). */
export const HEAD_CWD = USER.payload.cwd;
/** A spawn time a little before P's first message. */
export const SPAWNED = Date.UTC(2026, 11, 1, 20, 11, 40);

/** A rollout `sessions/2026/12/01/rollout-…-<id>.jsonl` whose first record is `head`. */
export function rollout(home: string, id: string, head: unknown): string {
  const first = typeof head === 'string' ? head : JSON.stringify(head);
  return write(path.join(home, 'sessions', '2026', '12', '01', `rollout-2026-12-01T20-11-48-${id}.jsonl`), `${first}\n{"type":"event_msg"}\n`);
}

/** The measured world in `home`: P, C and G, each with its rollout. */
export function measured(home: string): string {
  rollout(home, P, USER);
  rollout(home, C, CHILD);
  rollout(home, G, GRANDCHILD);
  return home;
}

/** The older head: the parent named only inside `source.subagent.thread_spawn`. */
export function olderChild(id: string, parent: string): Head {
  const { parent_thread_id: _p, thread_source: _t, ...payload } = CHILD.payload;
  return { payload: { ...payload, id, source: { subagent: { thread_spawn: { parent_thread_id: parent, depth: 1, agent_path: null, agent_nickname: 'Tesla' } } } } };
}
