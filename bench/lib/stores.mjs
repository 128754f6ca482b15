// The agents' session stores that bench/store-correlation.bench.mjs searches, generated in one
// process. Writing 120 000 files one by one (open, write, close, and as many unlinks
// afterwards) took 379 s of a 12-minute `npm run bench` on a loaded 2-core machine, nearly
// all of it codex's 100 000 rollouts. So every rollout the lookup only lists is a hard link
// (link(2): one system call, a directory entry, no new inode or data) to one of 51 template
// files, one per cwd they name; the target rollout, the only one whose first line the lookup
// reads, is a file of its own. A link is listed like any other name; 100 000 links are made
// in about a second where the files took minutes.
//
// claude's 20 000 transcripts stay files of their own: that lookup stats every one (8.5 needs
// each birth time), so the figure is measured on as many inodes as a real project dir has.
import { linkSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { claudeSlug } from '../../dist/harness/index.js';
import { sleep } from './world.mjs';

const DAY_MS = 86_400_000;
const hex = (n, width) => n.toString(16).padStart(width, '0');

/** A v7 id minted at `ms`, with `n` making it unique. */
export function v7(ms, n) {
  const t = hex(ms, 12);
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${hex(n & 0xfff, 3)}-8${hex((n >>> 12) & 0xfff, 3)}-${hex(n, 12)}`;
}
const v4 = (n) => `${hex(n, 8)}-0000-4000-8000-${hex(n * 7919, 12).slice(-12)}`;
const rolloutName = (ms, id) => `rollout-${new Date(ms).toISOString().slice(0, 19).replaceAll(':', '-')}-${id}.jsonl`;
const dayPath = (ms) => new Date(ms).toISOString().slice(0, 10).split('-');
const sessionMeta = (id, cwd) => `${JSON.stringify({ type: 'session_meta', payload: { id, cwd } })}\n`;

/**
 * codex: `rollouts` rollouts over the last `days` days before `now` (names with v7 ids at
 * their times, a session_meta first line; every tenth names `cwd`), none inside the task's
 * window but the target's. The task ran from 20 minutes before `now`; its rollout was born a
 * minute in. The out-of-window rollouts link to 51 templates, one per cwd they name.
 */
export function codexStore(root, { rollouts, days, now, cwd }) {
  const home = join(root, 'codex');
  const templates = join(root, 'codex-templates');
  mkdirSync(templates, { recursive: true });
  const template = (n) => {
    const variant = n % 10 === 0 ? 'own' : `other-${n % 50}`;
    return join(templates, `${variant}.jsonl`);
  };
  writeFileSync(join(templates, 'own.jsonl'), sessionMeta(v7(now - DAY_MS, 0), cwd));
  for (let k = 0; k < 50; k++) writeFileSync(join(templates, `other-${k}.jsonl`), sessionMeta(v7(now - DAY_MS, k + 1), `/home/someone/src/other-${k}`));
  const spawnedAt = now - 20 * 60_000;
  const targetMs = spawnedAt + 60_000;
  const target = v7(targetMs, rollouts + 1);
  const perDay = Math.ceil(rollouts / days);
  const dirs = new Set();
  let n = 0;
  for (let day = 0; day < days && n < rollouts; day++) {
    const dayStart = Math.floor((now - day * DAY_MS) / DAY_MS) * DAY_MS;
    const dir = join(home, 'sessions', ...dayPath(dayStart));
    if (!dirs.has(dir)) mkdirSync(dir, { recursive: true });
    dirs.add(dir);
    for (let k = 0; k < perDay && n < rollouts; k++, n++) {
      // Spread over the day; never inside the task's window (only the target is).
      let ms = dayStart + Math.floor(((k + 0.5) / perDay) * DAY_MS);
      if (ms >= spawnedAt - 31_000) ms = spawnedAt - 31_000 - k * 1000;
      linkSync(template(n), join(dir, rolloutName(ms, v7(ms, n))));
    }
  }
  const targetDir = join(home, 'sessions', ...dayPath(targetMs));
  mkdirSync(targetDir, { recursive: true });
  dirs.add(targetDir);
  writeFileSync(join(targetDir, rolloutName(targetMs, target)), sessionMeta(target, cwd));
  return { home, spawnedAt, target, dirs };
}

/**
 * claude: a project dir of `transcripts` transcripts of `cwd`; all but one were born before
 * the task's window, the task's own inside it, written after the window opened. The task
 * "spawned" 30 s after the window opened.
 */
export async function claudeStore(root, { transcripts, cwd }) {
  const home = join(root, 'claude');
  const project = join(home, 'projects', claudeSlug(cwd));
  mkdirSync(project, { recursive: true });
  for (let i = 0; i < transcripts - 1; i++) writeFileSync(join(project, `${v4(i)}.jsonl`), '{"type":"user"}\n');
  const windowOpens = Date.now() + 200;
  await sleep(400);
  const target = v4(transcripts + 7);
  writeFileSync(join(project, `${target}.jsonl`), `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'hello' } })}\n`);
  return { home, project, spawnedAt: windowOpens + 30_000, target };
}
