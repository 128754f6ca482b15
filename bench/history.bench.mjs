// `fleetcom history` on generated stores, in process (the built history layer), each figure
// against a baseline of the same run over the same files:
//   --cwd: 2 000 conversations of one directory (claude transcripts and codex rollouts of
//          ~30 KiB: a 22 KiB codex first record, messages, claude's title records at the
//          end), read cold (no cache) and warm (the cache file in place), against opening each
//          file and reading its first and last 4 KiB;
//   --all: 20 000 conversations over 20 directories, warm, against the same 4 KiB baseline;
//   --search: a word that is in 2 % of the conversations, against `grep -rilF` over the files.
import { execFileSync } from 'node:child_process';
import { closeSync, fstatSync, mkdirSync, mkdtempSync, openSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { alternate } from './lib/alternate.mjs';
import { collect, HistoryCache, searchFound } from '../dist/history/index.js';

const FULL = { cwd: 2_000, all: 20_000, trials: 5, warmup: 1 };
const SMOKE = { cwd: 100, all: 400, trials: 2, warmup: 0 };
const DIRS = 20;
const NEEDLE = 'Flamingo-Protocol';

const pad = (n) => String(n).padStart(12, '0');
const uuid = (n) => `${pad(n).slice(0, 8)}-1111-4222-8333-${pad(n)}`;
const v7 = (n) => `019f5453-de22-7${pad(n).slice(-3)}-b2e5-${pad(n)}`;
const filler = 'lorem ipsum dolor sit amet '.repeat(40);

function claudeFile(cwd, n) {
  const lines = [{ type: 'user', cwd, sessionId: uuid(n), message: { role: 'user', content: `task ${n}: ${n % 100 === 0 ? NEEDLE : 'refactor'} the module` } }];
  for (let i = 0; i < 20; i++) lines.push({ type: 'assistant', cwd, message: { role: 'assistant', content: [{ type: 'text', text: `${filler}${i}` }] } });
  lines.push({ type: 'ai-title', aiTitle: `Refactor module ${n}`, sessionId: uuid(n) }, { type: 'custom-title', customTitle: `work ${n}`, sessionId: uuid(n) });
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}

function codexFile(cwd, n) {
  const meta = { timestamp: 't', type: 'session_meta', payload: { id: v7(n), cwd, source: 'cli', thread_source: 'user', base_instructions: { text: 'x'.repeat(22_000) } } };
  const lines = [meta, { timestamp: 't', type: 'event_msg', payload: { type: 'user_message', message: `task ${n}: ${n % 100 === 1 ? NEEDLE : 'fix'} the bug` } }];
  for (let i = 0; i < 8; i++) lines.push({ timestamp: 't', type: 'event_msg', payload: { type: 'agent_message', message: `${filler}${i}` } });
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}

/** `count` conversations over `dirs` directories, half claude, half codex; every file's path. */
function makeStores(root, count, dirs) {
  const claudeHome = join(root, 'claude');
  const codexHome = join(root, 'codex');
  const day = join(codexHome, 'sessions', '2026', '12', '01');
  mkdirSync(day, { recursive: true });
  const files = [];
  for (let n = 0; n < count; n++) {
    const cwd = `/home/someone/src/p${n % dirs}`;
    if (n % 2 === 0) {
      const project = join(claudeHome, 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'));
      mkdirSync(project, { recursive: true });
      const file = join(project, `${uuid(n)}.jsonl`);
      writeFileSync(file, claudeFile(cwd, n));
      files.push(file);
    } else {
      const file = join(day, `rollout-2026-12-01T20-11-48-${v7(n)}.jsonl`);
      writeFileSync(file, codexFile(cwd, n));
      files.push(file);
    }
  }
  return { homes: [{ agent: 'claude', home: claudeHome }, { agent: 'codex', home: codexHome }], files };
}

/** The baseline: open each file, read its first and last 4 KiB. */
function headTail4k(files) {
  const buffer = Buffer.allocUnsafe(4096);
  for (const file of files) {
    const fd = openSync(file, 'r');
    const { size } = fstatSync(fd);
    readSync(fd, buffer, 0, 4096, 0);
    readSync(fd, buffer, 0, 4096, Math.max(0, size - 4096));
    closeSync(fd);
  }
}

export async function run({ smoke = false } = {}) {
  const size = smoke ? SMOKE : FULL;
  const tmp = mkdtempSync(join(tmpdir(), 'fleetcom-bench-history-'));
  try {
    const one = makeStores(join(tmp, 'one'), size.cwd, 1);
    const scope = { kind: 'dirs', dirs: ['/home/someone/src/p0'] };
    const cold = alternate(() => collect(one.homes, scope, HistoryCache.none()).found.length, () => headTail4k(one.files), size);
    if (cold.result !== size.cwd) throw new Error(`history --cwd listed ${cold.result} of ${size.cwd}`);
    const cacheFile = join(tmp, 'cache-one.json');
    const warmOnce = HistoryCache.load(cacheFile);
    collect(one.homes, scope, warmOnce);
    warmOnce.save();
    const warm = alternate(() => {
      const cache = HistoryCache.load(cacheFile);
      const n = collect(one.homes, scope, cache).found.length;
      cache.save();
      return n;
    }, () => headTail4k(one.files), size);

    const many = makeStores(join(tmp, 'many'), size.all, DIRS);
    const manyCache = join(tmp, 'cache-many.json');
    const first = HistoryCache.load(manyCache);
    collect(many.homes, { kind: 'all' }, first);
    first.save();
    const all = alternate(() => {
      const cache = HistoryCache.load(manyCache);
      const n = collect(many.homes, { kind: 'all' }, cache).found.length;
      cache.save();
      return n;
    }, () => headTail4k(many.files), size);
    if (all.result !== size.all) throw new Error(`history --all listed ${all.result} of ${size.all}`);

    const found = collect(one.homes, scope, HistoryCache.load(cacheFile)).found;
    const grepRoots = one.homes.map((h) => h.home);
    const search = alternate(() => [...searchFound(found, NEEDLE.toLowerCase())].filter((e) => e.kind === 'match').length,
      () => execFileSync('grep', ['-rilF', NEEDLE, ...grepRoots]), size);
    const holding = Array.from({ length: size.cwd }, (_, n) => n % 100 < 2).filter(Boolean).length;
    if (search.result !== holding) throw new Error(`history --search found ${search.result}, not ${holding}`);
    const kib = Math.round(one.files.reduce((n, f) => n + fstatSize(f), 0) / one.files.length / 1024);
    return [
      { figure: `history --cwd: ${size.cwd} conversations, no cache`, unit: 'ms', samples: cold.samples, baseline: cold.floors, target: { ratio: 6 },
        note: `baseline: open each file, read its first and last 4 KiB (files of ~${kib} KiB; history reads 64 KiB ends and parses them)` },
      { figure: `history --cwd: ${size.cwd} conversations, cached`, unit: 'ms', samples: warm.samples, baseline: warm.floors, target: { ratio: 1.5 },
        note: 'the cache file read, every file stat-ed (none changed, so the cache is not written again); baseline as above' },
      { figure: `history --all: ${size.all} conversations / ${DIRS} dirs, cached`, unit: 'ms', samples: all.samples, baseline: all.floors, target: { ratio: 1.5 },
        note: 'baseline: first and last 4 KiB of every file' },
      { figure: `history --search: ${size.cwd} conversations`, unit: 'ms', samples: search.samples, baseline: search.floors, target: { ratio: 3 },
        note: 'baseline: grep -rilF over the same stores (a process start included); history parses each matching line' },
    ];
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function fstatSize(file) {
  const fd = openSync(file, 'r');
  try {
    return fstatSync(fd).size;
  } finally {
    closeSync(fd);
  }
}
