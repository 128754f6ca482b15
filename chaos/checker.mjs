// The chaos checker: pure. It reads one observation of a fleet — the fake agents' own log of
// which conversation each process was in (the ground truth), `ls --json`, every recipe and
// recovery snapshot, the supervisors seen, the client commands run, the live windows — and
// returns the invariants it breaks. Nothing here reads the clock, the disk or tmux.
//
// An agent is known by its directory (a lineage): the chaos runner starts every agent of a
// history in a directory of its own, so every process there — a rerun, a load, a recover, an
// adoption — continues that one agent.
//
// `safety` violations are wrong at any moment (a foreign or subagent conversation, a torn
// recipe, an id that fails the strict check, a command past its deadline); `settle` ones are
// wrong only if they last (a task that has not followed its agent's /clear yet, a second
// supervisor still exiting): the runner observes again for a while before it reports them.

/** The strict per-agent id check: 36-char lowercase uuid; the opencode family `ses_` + 12 hex + 14 base62. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const OPENCODE = /^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/;
export const AGENTS = ['claude', 'codex', 'grok', 'gemini', 'opencode', 'qwen', 'kilo', 'pi', 'copilot'];
const OPENCODE_FAMILY = new Set(['opencode', 'kilo']);

export function strictId(agent, id) {
  return typeof id === 'string' && (OPENCODE_FAMILY.has(agent) ? OPENCODE : UUID).test(id);
}

/** The ground-truth lines, in order; a line cut short at the end (a write in flight) is left out. */
export function parseTruth(text) {
  const records = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const r = JSON.parse(line);
      if (r && typeof r.pid === 'number' && typeof r.event === 'string') records.push(r);
    } catch {
      // a partial last line
    }
  }
  return records;
}

/**
 * What the truth says: who owns each conversation (the directory that first entered it), the
 * subagent threads, which conversations hold a message (only those can be resumed), and per
 * process and per directory the conversations entered, in order.
 */
export function analyse(truth) {
  const owner = new Map();
  const subagents = new Map();
  const spoken = new Set();
  const procs = new Map();
  const dirs = new Map();
  const crossings = [];
  for (const r of truth) {
    if (r.event === 'subagent') {
      subagents.set(r.id, r);
      continue;
    }
    if (r.event === 'spoke') spoken.add(r.id);
    if (r.event !== 'enter' || typeof r.id !== 'string') continue;
    if (!owner.has(r.id)) owner.set(r.id, r.cwd);
    else if (owner.get(r.id) !== r.cwd) crossings.push(r);
    const proc = procs.get(r.pid) ?? { pid: r.pid, cwd: r.cwd, agent: r.agent, entered: [] };
    proc.entered.push(r.id);
    procs.set(r.pid, proc);
    const dir = dirs.get(r.cwd) ?? { cwd: r.cwd, agent: r.agent, entered: [], pids: [] };
    dir.entered.push(r.id);
    if (!dir.pids.includes(r.pid)) dir.pids.push(r.pid);
    dirs.set(r.cwd, dir);
  }
  /** The newest conversation of `entered` that can be resumed (has a message), or null. */
  const lastResumable = (entered) => {
    for (let i = entered.length - 1; i >= 0; i--) if (spoken.has(entered[i])) return entered[i];
    return null;
  };
  return { owner, subagents, spoken, procs, dirs, crossings, lastResumable };
}

/**
 * The conversations a resume for the agent of `cwd` may name now: the newest resumable one the
 * directory entered, and each live process's own newest (two processes of one agent after a
 * load); none is always allowed. A conversation entered but never spoken in cannot be resumed,
 * so it does not count: after a /clear with nothing typed the one before is still the last.
 */
export function allowedResumes(facts, cwd, alive) {
  const dir = facts.dirs.get(cwd);
  const allowed = new Set();
  if (!dir) return allowed;
  const last = facts.lastResumable(dir.entered);
  if (last) allowed.add(last);
  for (const pid of dir.pids) {
    if (!alive.has(pid)) continue;
    const mine = facts.lastResumable(facts.procs.get(pid).entered);
    if (mine) allowed.add(mine);
  }
  return allowed;
}

const RESUME_FLAG = /(?:--resume|-r)[ =]'?([^'\s]+)/;
const SESSION_FLAG = /(?:\s-s|--session)[ =]'?([^'\s]+)/;
const RESUME = {
  claude: RESUME_FLAG,
  grok: RESUME_FLAG,
  gemini: RESUME_FLAG,
  qwen: RESUME_FLAG,
  copilot: RESUME_FLAG,
  codex: /\bresume\s+'?([^'\s]+)/,
  opencode: SESSION_FLAG,
  kilo: SESSION_FLAG,
  pi: /--session[ =]'?([^'\s]+)/,
};

/** The agent a command runs (a word of it) and the conversation it resumes, if any. */
export function resumeOf(cmd) {
  const agent = AGENTS.find((a) => new RegExp(`(^|[\\s/'])${a}('|\\s|$)`).test(cmd));
  if (!agent) return { agent: null, id: null };
  const m = RESUME[agent].exec(` ${cmd}`);
  return { agent, id: m ? m[1] : null };
}

/** A recipe or snapshot's entries `{dir, cmd}`, or a reason it is torn. */
export function recipeEntries(text, home) {
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { torn: `not JSON (${e.message})` };
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return { torn: 'not a JSON object' };
  const dirs = typeof doc.version === 'number' ? doc.dirs : doc;
  if (!dirs || typeof dirs !== 'object' || Array.isArray(dirs)) return { torn: 'no "dirs" object' };
  const entries = [];
  for (const [key, list] of Object.entries(dirs)) {
    if (!Array.isArray(list)) return { torn: `directory ${key} holds no list` };
    const dir = key === '~' ? home : key.startsWith('~/') ? `${home}/${key.slice(2)}` : key;
    for (const e of list) {
      const cmd = typeof e === 'string' ? e : e && typeof e.cmd === 'string' ? e.cmd : null;
      if (cmd === null) return { torn: `an entry of ${key} has no command` };
      entries.push({ dir, cmd });
    }
  }
  return { entries, closed: doc.closed === true };
}

/**
 * Every invariant `obs` breaks:
 *   obs.truth        ground-truth records (parseTruth)
 *   obs.alive        pids of agent processes alive now
 *   obs.ls           `ls --json` records, or null when no fleet answers
 *   obs.home         HOME the recipes abbreviate as ~
 *   obs.files        [{file, text, kind: 'recipe'|'snapshot', fresh?, expectedEntries?, current?}]
 *                    fresh: saved by this step (checked against the truth now); current: the
 *                    live supervisor's snapshot
 *   obs.supervisors  [{pid}] live `up` processes of this fleet
 *   obs.commands     [{argv, ms, deadlineMs, timedOut}] client commands of this step
 *   obs.windows      [{windowId, paneId, agent}] live panes running an agent
 *   obs.panes        [{pid, paneId}] every agent process the runner saw in a pane of this tmux
 *                    server: a task's own processes (a task follows its own, not its directory's)
 *   obs.reported     window ids a command reported instead of taking them
 * Returns [{invariant, kind: 'safety'|'settle', evidence}].
 */
export function check(obs) {
  const facts = analyse(obs.truth);
  const alive = new Set(obs.alive ?? []);
  const out = [];
  const v = (invariant, kind, evidence) => out.push({ invariant, kind, evidence });

  for (const r of facts.crossings) {
    v('no foreign conversation', 'safety', `pid ${r.pid} (${r.agent}) in ${r.cwd} entered ${r.id}, the conversation of ${facts.owner.get(r.id)}`);
  }
  const holders = new Map();
  for (const pid of alive) {
    const proc = facts.procs.get(pid);
    const current = proc?.entered.at(-1);
    if (!current) continue;
    holders.set(current, [...(holders.get(current) ?? []), pid]);
  }
  for (const [id, pids] of holders) {
    if (pids.length > 1) v('one process per conversation', 'safety', `conversation ${id} is open in ${pids.length} live processes: ${pids.join(', ')}`);
  }

  // The processes each pane ran (seen live by the runner): a task's own, even when a load put
  // a second agent into the same directory.
  const panePids = new Map();
  for (const { pid, paneId } of obs.panes ?? []) panePids.set(paneId, [...(panePids.get(paneId) ?? []), pid]);
  /** The task's own newest resumable conversation, from the processes its pane ran; undefined when none was seen. */
  const taskExpected = (task) => {
    const pids = (panePids.get(task.paneId) ?? []).filter((pid) => facts.procs.get(pid)?.cwd === task.cwd);
    if (pids.length === 0) return undefined;
    const entered = obs.truth.filter((r) => r.event === 'enter' && pids.includes(r.pid)).map((r) => r.id);
    return facts.lastResumable(entered);
  };
  /** What a resume for the agent of `cwd` may name: the directory's, and each of its tasks' own. */
  const allowedFor = (cwd) => {
    const allowed = allowedResumes(facts, cwd, alive);
    for (const task of obs.ls ?? []) {
      const mine = task.cwd === cwd ? taskExpected(task) : undefined;
      if (mine) allowed.add(mine);
    }
    return allowed;
  };

  for (const task of obs.ls ?? []) {
    const id = task.conversationId;
    if (task.harness === null || id === null) continue;
    const where = `task ${task.id} (${task.harness} in ${task.cwd})`;
    if (!strictId(task.harness, id)) {
      v('strict ids', 'safety', `${where} records ${JSON.stringify(id)}, which fails the ${task.harness} id check`);
      continue;
    }
    if (facts.subagents.has(id)) {
      v('no foreign conversation', 'safety', `${where} names ${id}, a subagent thread of ${facts.subagents.get(id).parent}`);
      continue;
    }
    const dir = facts.dirs.get(task.cwd);
    const pinnedByFleet = typeof task.command === 'string' && task.command.includes(id);
    const owned = facts.owner.get(id);
    if (owned !== undefined && owned !== task.cwd) {
      v('no foreign conversation', 'safety', `${where} names ${id}, the conversation of the agent in ${owned}`);
    } else if (!dir?.entered.includes(id) && !pinnedByFleet) {
      v('no foreign conversation', 'safety', `${where} names ${id}, which no process of that agent was ever in`);
    } else if (dir?.entered.includes(id)) {
      const own = taskExpected(task);
      const allowed = own !== undefined ? new Set(own ? [own] : []) : allowedResumes(facts, task.cwd, alive);
      if (!allowed.has(id)) {
        v('tasks follow their agent', 'settle', `${where} names ${id}; its agent was last in ${[...allowed].join(' or ') || 'no resumable conversation'}`);
      }
    }
  }

  for (const f of obs.files ?? []) {
    const parsed = recipeEntries(f.text, obs.home);
    if (parsed.torn) {
      v('no torn recipe or snapshot', 'safety', `${f.kind} ${f.file} is torn: ${parsed.torn}`);
      continue;
    }
    if (f.expectedEntries !== undefined && parsed.entries.length !== f.expectedEntries) {
      v('no torn recipe or snapshot', 'safety', `${f.kind} ${f.file} holds ${parsed.entries.length} entries; the fleet had ${f.expectedEntries} tasks when it was saved`);
    }
    for (const { dir, cmd } of parsed.entries) {
      const { agent, id } = resumeOf(cmd);
      if (agent === null || id === null) continue;
      const where = `${f.kind} ${f.file}: \`${cmd}\` in ${dir}`;
      if (!strictId(agent, id)) {
        v('strict ids', 'safety', `${where} resumes ${JSON.stringify(id)}, which fails the ${agent} id check`);
        continue;
      }
      if (facts.subagents.has(id)) {
        v('resumes name the last conversation', 'safety', `${where} resumes ${id}, a subagent thread`);
        continue;
      }
      const owned = facts.owner.get(id);
      if (owned !== undefined && owned !== dir) {
        v('resumes name the last conversation', 'safety', `${where} resumes ${id}, the conversation of the agent in ${owned}`);
        continue;
      }
      if (!facts.dirs.get(dir)?.entered.includes(id)) {
        v('resumes name the last conversation', 'safety', `${where} resumes ${id}, which that agent was never in`);
        continue;
      }
      if (f.fresh || f.current) {
        const allowed = allowedFor(dir);
        if (!allowed.has(id)) {
          v('resumes name the last conversation', f.fresh ? 'safety' : 'settle', `${where} resumes ${id}; that agent was last in ${[...allowed].join(' or ') || 'no resumable conversation'}`);
        }
      }
    }
    if (f.current && obs.ls && obs.ls.length > 0 && parsed.entries.length === 0) {
      v('no torn recipe or snapshot', 'settle', `the live supervisor's snapshot ${f.file} is empty while the fleet has ${obs.ls.length} tasks`);
    }
  }

  const supervisors = obs.supervisors ?? [];
  if (supervisors.length > 1) {
    v('one supervisor per fleet', 'settle', `${supervisors.length} supervisors run for one fleet: pids ${supervisors.map((s) => s.pid).join(', ')}`);
  }
  for (const c of obs.commands ?? []) {
    if (c.timedOut || c.ms > c.deadlineMs) {
      v('commands keep their deadline', 'safety', `\`fleetcom ${c.argv.join(' ')}\` ran ${c.ms} ms, past its deadline of ${c.deadlineMs} ms`);
    }
  }
  if (obs.ls) {
    const tasks = new Set(obs.ls.map((t) => t.windowId));
    const reported = new Set(obs.reported ?? []);
    for (const w of obs.windows ?? []) {
      if (!tasks.has(w.windowId) && !reported.has(w.windowId)) {
        v('no task lost', 'settle', `window ${w.windowId} (pane ${w.paneId}) runs ${w.agent} but is no task and was not reported`);
      }
    }
  }
  return out;
}
