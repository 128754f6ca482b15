// Watches a lab (lab.ts) from outside, as fleetcom would hear a client: every change of the
// pane's title, every line its store file gains (qwen's transcript, copilot's events.jsonl:
// the file named <name> anywhere under the lab), and every probe hook line, each with the time
// it was seen, appended to <lab dir>/watch.jsonl. Not a test: it polls every 20 ms.
//
//   npx esbuild clients/probes/turn-watch.ts --bundle --platform=node --format=esm --outfile=/tmp/turn-watch.mjs
//   node /tmp/turn-watch.mjs <lab dir> <store file name: <session id>.jsonl | events.jsonl> &
//
// Measured with it (clients/README.md "qwen's turns"): when qwen's title, transcript and hooks
// say a turn began and ended, and when copilot writes its events.jsonl against its Stop hook.
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [lab = '', name = ''] = process.argv.slice(2);
if (!lab || !name) {
  process.stderr.write('usage: turn-watch.mjs <lab dir> <store file name>\n');
  process.exit(2);
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
while (!existsSync(join(lab, 'info.json'))) await sleep(20);
const info = JSON.parse(readFileSync(join(lab, 'info.json'), 'utf8')) as { socket: string; pane: string; hooks: string };
const out = join(lab, 'watch.jsonl');
const log = (o: Record<string, unknown>) => appendFileSync(out, `${JSON.stringify({ t: Date.now(), ...o })}\n`);

function find(dir: string, depth = 0): string | null {
  if (depth > 6) return null;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return null;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      const found = find(p, depth + 1);
      if (found) return found;
    } else if (e.name === name) return p;
  }
  return null;
}

const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
let title: string | null = null;
let store: string | null = null;
let stored = 0;
let hooked = 0;
for (;;) {
  try {
    const now = execFileSync('tmux', ['-S', info.socket, 'display-message', '-p', '-t', info.pane, '#{pane_title}'], { encoding: 'utf8' }).replace(/\n$/, '');
    if (now !== title) log({ k: 'title', v: (title = now) });
  } catch (e) {
    log({ k: 'tmux-error', v: String((e as Error).message).slice(0, 100) });
    await sleep(1000);
  }
  if (store === null && (store = find(lab)) !== null) log({ k: 'store-file', v: store });
  if (store !== null && existsSync(store)) {
    const got = lines(store);
    for (; stored < got.length; stored++) {
      let r: Record<string, unknown>;
      try {
        r = JSON.parse(got[stored]!) as Record<string, unknown>;
      } catch {
        r = { bad: got[stored]!.slice(0, 80) };
      }
      log({ k: 'store', n: stored, type: r.type, subtype: r.subtype, ts: r.timestamp });
    }
  }
  if (existsSync(info.hooks)) {
    const got = lines(info.hooks);
    for (; hooked < got.length; hooked++) {
      const h = JSON.parse(got[hooked]!) as { t: number; ev: string };
      log({ k: 'hook', ev: h.ev, ht: h.t });
    }
  }
  await sleep(20);
}
