// Store correlation (contract 8.5), in process, on generated stores (bench/lib/stores.mjs):
// the real resolveId with `correlate: true` for a task whose only evidence is its directory
// and spawn time, against the file system's own part of that work in the same run.
//   codex: 100 000 rollouts over the last 365 days (274 a day, names with v7 ids at their
//          times; exactly one in the task's window names its cwd). The lookup reads names, so
//          it must cost no more than listing and stat-ing the probed day folders.
//   claude: a project dir of 20 000 transcripts; all but one were born before the task's
//          window, one inside it. 8.5 needs each transcript's birth time, so listing and
//          stat-ing every one is the lookup's floor; the goal is what fleetcom adds to it.
//          (An absolute goal said nothing: on a loaded machine the floor alone took 469 ms.)
// Both stores are generated once per run in a temp dir; the figure is one resolveId call,
// repeated (the first calls, with a cold cache, are warm-up), each followed by its floor.
import { lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { alternate } from './lib/alternate.mjs';
import { resolveId, utcDateFolders } from '../dist/harness/index.js';
import { claudeStore, codexStore } from './lib/stores.mjs';

const FULL = { codexRollouts: 100_000, claudeTranscripts: 20_000, trials: 20, warmup: 2 };
const SMOKE = { codexRollouts: 2_000, claudeTranscripts: 500, trials: 3, warmup: 1 };
const CODEX_DAYS = 365;
const CWD = '/home/someone/src/project';
/** The lookup over its floor: codex reads no inode (≤ 1), claude stats each transcript once. */
const CODEX_RATIO = 1;
const CLAUDE_RATIO = 1.25;

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
    const built = performance.now();
    const codex = codexStore(tmp, { rollouts: CODEX_ROLLOUTS, days: CODEX_DAYS, now: Date.now(), cwd: CWD });
    const claude = await claudeStore(tmp, { transcripts: CLAUDE_TRANSCRIPTS, cwd: CWD });
    const buildS = ((performance.now() - built) / 1000).toFixed(1);

    const options = (at) => ({ now: at, correlate: true, heldByOthers: new Set(), everHeld: new Set() });
    const base = { captureFile: null, exitHint: null, pinnedId: null, endedAt: null, cwd: CWD };
    const codexDirs = utcDateFolders(codex.spawnedAt, Date.now(), 2, 1).map((f) => join(codex.home, 'sessions', ...f.split('/')))
      .filter((dir) => codex.dirs.has(dir));
    const codexRun = alternate(() => resolveId({ ...base, harness: 'codex', home: codex.home, spawnedAt: codex.spawnedAt }, options(Date.now())), () => listAndStat(codexDirs), size);
    if (codexRun.result?.id !== codex.target) throw new Error(`codex correlation found ${JSON.stringify(codexRun.result)}, not ${codex.target}`);
    const claudeRun = alternate(() => resolveId({ ...base, harness: 'claude', home: claude.home, spawnedAt: claude.spawnedAt }, options(claude.spawnedAt + 60_000)), () => listAndStat([claude.project]), size);
    if (claudeRun.result?.id !== claude.target) throw new Error(`claude correlation found ${JSON.stringify(claudeRun.result)}, not ${claude.target}`);
    return [
      { figure: `store correlation: codex, ${CODEX_ROLLOUTS / 1000}k rollouts / ${CODEX_DAYS} d`, unit: 'ms', samples: codexRun.samples, baseline: codexRun.floors, target: { ratio: CODEX_RATIO },
        note: `baseline: readdir + lstat of every entry of the probed day folders (the file system floor); both stores built in ${buildS} s` },
      { figure: `store correlation: claude, ${CLAUDE_TRANSCRIPTS / 1000}k transcripts`, unit: 'ms', samples: claudeRun.samples, baseline: claudeRun.floors, target: { ratio: CLAUDE_RATIO },
        note: 'baseline: readdir + lstat of every transcript (the floor: 8.5 needs each birth time)' },
    ];
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
