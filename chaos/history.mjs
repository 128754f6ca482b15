// Runs one history: a fresh world, `fleetcom up`, then each step and the checker after it.
// Returns at the first invariant broken (with the steps run so far), or when all steps ran.
import { runAgentStep } from './agent-steps.mjs';
import { check, parseTruth } from './checker.mjs';
import { FAULTS, runFaultStep } from './fault-steps.mjs';
import { describe } from './steps.mjs';
import { createWorld, processAlive, sleep } from './world.mjs';

/** How long a `settle` violation may last before it is reported. */
const SETTLE_MS = 12_000;

/**
 * Runs `steps`; `log(line)` gets one line per step. Returns {violations, ran, skipped, notes}.
 * `fullDisk` is null when a full disk can be made here, else the reason it cannot.
 */
export async function runHistory(steps, { log = () => {}, fullDisk = null } = {}) {
  const world = createWorld();
  const slots = new Map();
  const notes = [];
  let saves = 0;
  let ran = 0;
  try {
    const started = await world.up();
    if (!started.answered) return { violations: [{ invariant: 'the fleet starts', kind: 'safety', evidence: 'fleetcom up did not answer within 30 s' }], ran, notes };
    for (const [i, step] of steps.entries()) {
      const fresh = [];
      const ctx = { world, slots, step, index: i, fresh, notes, fullDisk, violations: [], nextSave: () => `chaos-${++saves}` };
      const t0 = Date.now();
      const outcome = await runStep(ctx);
      ran += 1;
      const t1 = Date.now();
      // A skipped step changed nothing: the last check stands.
      const skipped = typeof outcome === 'string' && outcome.startsWith('skipped');
      const violations = [...ctx.violations, ...(skipped ? [] : await settleAndCheck(world, fresh))];
      log(`  ${String(i + 1).padStart(3)} ${describe(step)}${outcome ? ` — ${outcome}` : ''} (${t1 - t0} + ${Date.now() - t1} ms)`);
      if (violations.length > 0) return { violations, ran, notes, failedAt: i, logs: await world.supervisorLogs() };
    }
    return { violations: [], ran, notes };
  } finally {
    await world.destroy();
  }
}

/** Observes and checks; a `settle` violation is observed again until it is gone or SETTLE_MS pass. */
async function settleAndCheck(world, fresh) {
  const commands = world.takeCommands();
  const end = Date.now() + SETTLE_MS;
  for (;;) {
    const obs = await observe(world, fresh);
    const violations = check({ ...obs, commands });
    const safety = violations.filter((v) => v.kind === 'safety');
    if (safety.length > 0) return safety;
    if (violations.length === 0) return [];
    if (Date.now() > end) return violations;
    await sleep(300);
    world.takeCommands();
  }
}

async function observe(world, fresh) {
  const lsRun = await world.cli(['ls', '--json'], { deadlineMs: 20_000 });
  let ls = null;
  if (lsRun.code === 0) {
    try {
      ls = JSON.parse(lsRun.stdout);
    } catch {
      ls = null;
    }
  }
  world.lastLs = ls;
  const truth = parseTruth(world.truthText());
  const alive = [...new Set(truth.map((r) => r.pid))].filter(processAlive);
  const supervisors = world.supervisors();
  const files = world.recipeFiles().map((f) => {
    const saved = fresh.find((x) => x.file === f.file);
    const current = f.kind === 'snapshot' && supervisors.some((s) => f.file.endsWith(`-${s.pid}.json`));
    return { ...f, ...(saved ? { fresh: true, expectedEntries: saved.expectedEntries } : {}), current };
  });
  for (const f of fresh) if (f.text !== undefined) files.push({ file: f.file, kind: 'recipe', text: f.text, fresh: true });
  const windows = await world.agentPanes();
  for (const w of windows) world.panesSeen.set(w.pid, w.paneId);
  const panes = [...world.panesSeen].map(([pid, paneId]) => ({ pid, paneId }));
  return { truth, alive, ls, home: world.home, files, supervisors, windows, reported: [...world.reported], panes };
}

async function runStep(ctx) {
  return FAULTS.has(ctx.step.op) ? runFaultStep(ctx) : runAgentStep(ctx);
}
