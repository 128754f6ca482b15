// `fleetcom load` of a recipe of 300 000 directories that do not exist (smoke: 2 000), into a
// running headless fleet: nothing starts, and the warnings are summed up (the figure fails
// when the load prints more than a handful of lines). Process start to exit, against its
// floor in the same world: a Node that reads the same file, parses it and stats every
// directory (what any loader of it must do), interleaved.
import { writeFileSync } from 'node:fs';
import { createWorld, runTimed } from './lib/world.mjs';

// The load also checks each entry's shape, builds its warnings and starts the CLI: 1.9× the
// floor (CPU and wall alike, 300 000 entries, loaded 2 cores). The code before (an exception per
// missing directory, a line each) took 3.4× its CPU.
const RATIO = 2.5;
const FLOOR = `
const { readFileSync, statSync } = require('node:fs');
const doc = JSON.parse(readFileSync(process.argv[1], 'utf8'));
let found = 0;
for (const dir of Object.keys(doc.dirs)) if (statSync(dir, { throwIfNoEntry: false })?.isDirectory()) found++;
process.stdout.write(String(found));
`;

export async function run({ smoke = false } = {}) {
  const [ENTRIES, TRIALS] = smoke ? [2_000, 1] : [300_000, 3];
  const w = await createWorld();
  try {
    await w.startFleet();
    const dirs = {};
    for (let i = 0; i < ENTRIES; i++) dirs[`/nonexistent/fleetcom-bench/d${i}`] = [`sleep ${i}`];
    const file = w.path('missing.json');
    writeFileSync(file, JSON.stringify({ version: 1, name: 'missing', dirs }));
    const load = [];
    const floor = [];
    for (let i = 0; i < TRIALS; i++) {
      const f = await runTimed(process.execPath, ['-e', FLOOR, file], { env: w.env, cwd: w.dir });
      if (f.code !== 0 || f.stdout !== '0') throw new Error(`the floor failed (${f.code}): ${f.stderr}${f.stdout}`);
      floor.push(f.ms);
      const r = await w.cli(['load', file]);
      const lines = r.stderr.split('\n').filter(Boolean);
      if (r.code !== 0 || !lines.includes("loaded 'missing': 0 task(s)")) throw new Error(`load failed (${r.code}): ${r.stderr.slice(0, 500)}`);
      if (lines.length > 5) throw new Error(`load printed ${lines.length} lines for ${ENTRIES} missing directories, not a handful`);
      load.push(r.ms);
    }
    return [{
      figure: `fleetcom load, ${ENTRIES / 1000}k missing directories`, unit: 'ms', samples: load, baseline: floor, target: { ratio: RATIO },
      note: 'baseline: node reading the file, JSON.parse and a stat of every directory; the load must print at most 5 lines',
    }];
  } finally {
    await w.close();
  }
}
