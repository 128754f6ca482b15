// Store correlation (contract 8.5), in process, on generated stores: the real resolveId with
// `correlate: true` for a task whose only evidence is its directory and spawn time.
//   codex: 100 000 rollouts over the last 365 days (274 a day, names with v7 ids at their
//          times, a session_meta first line; exactly one in the task's window names its cwd).
//   claude: a project dir of 20 000 transcripts; all but one were born before the task's
//          window (the window is set just after they were written), one inside it.
// Both stores are generated once per run in a temp dir; the figure is one resolveId call,
// repeated (the first calls, with a cold cache, are warm-up).
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { claudeSlug, resolveId, utcDateFolders } from '../dist/harness/index.js';
import { sleep } from './lib/world.mjs';

const FULL = { codexRollouts: 100_000, claudeTranscripts: 20_000, trials: 20, warmup: 2 };
const SMOKE = { codexRollouts: 2_000, claudeTranscripts: 500, trials: 3, warmup: 1 };
const CODEX_DAYS = 365;
const DAY_MS = 86_400_000;
const CWD = '/home/someone/src/project';

const hex = (n, width) => n.toString(16).padStart(width, '0');
/** A v7 id minted at `ms`, with `n` making it unique. */
function v7(ms, n) {
  const t = hex(ms, 12);
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${hex(n & 0xfff, 3)}-8${hex((n >>> 12) & 0xfff, 3)}-${hex(n, 12)}`;
}
const v4 = (n) => `${hex(n, 8)}-0000-4000-8000-${hex(n * 7919, 12).slice(-12)}`;
const rolloutName = (ms, id) => `rollout-${new Date(ms).toISOString().slice(0, 19).replaceAll(':', '-')}-${id}.jsonl`;
const dayPath = (ms) => new Date(ms).toISOString().slice(0, 10).split('-');

/** `fn` and `floor` alternately, WARMUP + TRIALS times each; the samples of both after warm-up. */
function timeIt(fn, floor, { trials: TRIALS, warmup: WARMUP }) {
  const samples = [];
  const floors = [];
  let result;
  for (let i = 0; i < WARMUP + TRIALS; i++) {
    let start = performance.now();
    result = fn();
    const ms = performance.now() - start;
    start = performance.now();
    floor();
    const f = performance.now() - start;
    if (i < WARMUP) continue;
    samples.push(ms);
    floors.push(f);
  }
  return { samples, floors, result };
}

/** The file system's part: list the directories and lstat every entry (what 8.5 must read). */
function listAndStat(dirs) {
  let n = 0;
  for (const dir of dirs) for (const entry of readdirSync(dir, { withFileTypes: true })) n += lstatSync(join(dir, entry.name)).size > 0 ? 1 : 0;
  return n;
}

export async function run({ smoke = false } = {}) {
  const size = smoke ? SMOKE : FULL;
  const { codexRollouts: CODEX_ROLLOUTS, claudeTranscripts: CLAUDE_TRANSCRIPTS } = size;
  const tmp = mkdtempSync(join(tmpdir(), 'fleetcom-bench-stores-'));
  try {
    const now = Date.now();
    // codex: the task ran from 20 minutes ago until now; its rollout was born a minute in.
    const codexHome = join(tmp, 'codex');
    const spawnedAt = now - 20 * 60_000;
    const targetMs = spawnedAt + 60_000;
    const target = v7(targetMs, CODEX_ROLLOUTS + 1);
    const perDay = Math.ceil(CODEX_ROLLOUTS / CODEX_DAYS);
    const made = new Set();
    let n = 0;
    for (let day = 0; day < CODEX_DAYS && n < CODEX_ROLLOUTS; day++) {
      const dayStart = Math.floor((now - day * DAY_MS) / DAY_MS) * DAY_MS;
      const dir = join(codexHome, 'sessions', ...dayPath(dayStart));
      if (!made.has(dir)) mkdirSync(dir, { recursive: true });
      made.add(dir);
      for (let k = 0; k < perDay && n < CODEX_ROLLOUTS; k++, n++) {
        // Spread over the day; never inside the task's window except the target below.
        let ms = dayStart + Math.floor(((k + 0.5) / perDay) * DAY_MS);
        if (ms >= spawnedAt - 31_000) ms = spawnedAt - 31_000 - k * 1000;
        const first = { type: 'session_meta', payload: { id: v7(ms, n), cwd: n % 10 === 0 ? CWD : `/home/someone/src/other-${n % 50}` } };
        writeFileSync(join(dir, rolloutName(ms, v7(ms, n))), `${JSON.stringify(first)}\n`);
      }
    }
    const targetDir = join(codexHome, 'sessions', ...dayPath(targetMs));
    mkdirSync(targetDir, { recursive: true });
    writeFileSync(join(targetDir, rolloutName(targetMs, target)), `${JSON.stringify({ type: 'session_meta', payload: { id: target, cwd: CWD } })}\n`);

    // claude: 19 999 transcripts, then (after the window opens) the task's own.
    const claudeHome = join(tmp, 'claude');
    const project = join(claudeHome, 'projects', claudeSlug(CWD));
    mkdirSync(project, { recursive: true });
    for (let i = 0; i < CLAUDE_TRANSCRIPTS - 1; i++) writeFileSync(join(project, `${v4(i)}.jsonl`), '{"type":"user"}\n');
    const windowOpens = Date.now() + 200; // the task "spawned" 30 s after this
    await sleep(400);
    const claudeTarget = v4(CLAUDE_TRANSCRIPTS + 7);
    writeFileSync(join(project, `${claudeTarget}.jsonl`), `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'hello' } })}\n`);

    const options = (at) => ({ now: at, correlate: true, heldByOthers: new Set(), everHeld: new Set() });
    const base = { captureFile: null, exitHint: null, pinnedId: null, endedAt: null, cwd: CWD };
    const codexDirs = utcDateFolders(spawnedAt, Date.now(), 2, 1).map((f) => join(codexHome, 'sessions', ...f.split('/')))
      .filter((dir) => made.has(dir) || dir === targetDir);
    const codex = timeIt(() => resolveId({ ...base, harness: 'codex', home: codexHome, spawnedAt }, options(Date.now())), () => listAndStat(codexDirs), size);
    if (codex.result?.id !== target) throw new Error(`codex correlation found ${JSON.stringify(codex.result)}, not ${target}`);
    const claudeSpawn = windowOpens + 30_000;
    const claude = timeIt(() => resolveId({ ...base, harness: 'claude', home: claudeHome, spawnedAt: claudeSpawn }, options(claudeSpawn + 60_000)), () => listAndStat([project]), size);
    if (claude.result?.id !== claudeTarget) throw new Error(`claude correlation found ${JSON.stringify(claude.result)}, not ${claudeTarget}`);
    return [
      { figure: `store correlation: codex, ${CODEX_ROLLOUTS / 1000}k rollouts / ${CODEX_DAYS} d`, unit: 'ms', samples: codex.samples, baseline: codex.floors, target: 50,
        note: 'baseline: readdir + lstat of every entry of the probed day folders (the file system floor)' },
      { figure: `store correlation: claude, ${CLAUDE_TRANSCRIPTS / 1000}k transcripts`, unit: 'ms', samples: claude.samples, baseline: claude.floors, target: 200,
        note: 'baseline: readdir + lstat of every transcript (the floor: 8.5 needs each birth time)' },
    ];
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
