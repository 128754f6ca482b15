// A process someone started by hand, read from /proc as an agent's probe needs it (harness/
// probe.ts): which agent it runs, its argv, environment, directory, and the files it and its
// descendants hold open. Reading only: nothing here signals or changes a process.
import { delimiter } from 'node:path';
import { HARNESSES, type AgentProcess, type HarnessName, type OpenFiles } from '../../harness/index.js';
import { descendantsOf, openFilesOf, processFacts, type ProcessFacts, type TreeProcess } from '../../ownership/index.js';

/** A process that runs an agent, and the program word it was started with. */
export interface AgentMatch {
  agent: HarnessName;
  program: string;
  process: TreeProcess;
  facts: ProcessFacts;
}

/** The agent a process runs (by its argv), or null. */
export function agentOf(proc: string, process: TreeProcess): AgentMatch | null {
  const facts = processFacts(proc, process.pid);
  if (facts.argv === null) return null;
  const dirs = (facts.env?.PATH ?? '').split(delimiter).filter(Boolean);
  for (const harness of HARNESSES) {
    const program = harness.probe.program(facts.argv, dirs);
    if (program !== null) return { agent: harness.name, program, process, facts };
  }
  return null;
}

/**
 * The agents running in a pane: its process or a descendant whose argv names an agent, the
 * outermost only (codex's node launcher runs the native `codex`; a claude's tool may run
 * another agent: the one the user started is the outer one). Zombies have ended.
 */
export function agentsUnder(proc: string, tree: ReadonlyMap<number, TreeProcess>, panePid: number): AgentMatch[] {
  const root = tree.get(panePid);
  if (root === undefined) return [];
  const matched = new Set<number>();
  const found: AgentMatch[] = [];
  const insideMatch = (p: TreeProcess): boolean => {
    if (p.pid === panePid) return false;
    for (let up = tree.get(p.ppid); up !== undefined; up = tree.get(up.ppid)) {
      if (matched.has(up.pid)) return true;
      if (up.pid === panePid) return false;
    }
    return false;
  };
  for (const p of [root, ...descendantsOf(tree, panePid)]) {
    if (p.state === 'Z' || p.state === 'X' || insideMatch(p)) continue;
    const match = agentOf(proc, p);
    if (match === null) continue;
    matched.add(p.pid);
    found.push(match);
  }
  return found;
}

/**
 * What an agent's probe is given: the process's own facts, and the files it and its
 * descendants hold open — those of a descendant in another session (a daemon that called
 * setsid) apart, since a daemon may hold other processes' files.
 */
export function agentProcess(proc: string, tree: ReadonlyMap<number, TreeProcess>, match: AgentMatch): AgentProcess | { unreadable: string } {
  const { facts, process } = match;
  if (facts.argv === null || facts.env === null) return { unreadable: `${proc}/${process.pid}/environ cannot be read` };
  if (facts.cwd === null) return { unreadable: `${proc}/${process.pid}/cwd cannot be read` };
  return { pid: process.pid, start: process.start, argv: facts.argv, env: facts.env, cwd: facts.cwd, open: openFilesUnder(proc, tree, process) };
}

function openFilesUnder(proc: string, tree: ReadonlyMap<number, TreeProcess>, top: TreeProcess): OpenFiles | { unreadable: string } {
  const files: string[] = [];
  const daemonFiles: Array<{ pid: number; file: string }> = [];
  for (const p of [top, ...descendantsOf(tree, top.pid)]) {
    if (p.state === 'Z' || p.state === 'X') continue;
    const open = openFilesOf(proc, p.pid);
    if ('unreadable' in open) return open;
    if (p.sid === top.sid) files.push(...open.files);
    else daemonFiles.push(...open.files.map((file) => ({ pid: p.pid, file })));
  }
  return { files, daemonFiles };
}
