import { HARNESSES, harnessFor, type HarnessName } from '../harness/index.js';
import { claudeLiveness } from './claude-registry.js';
import { openFiles, placeOf, PROC_ROOT, type Liveness, type OpenFiles, type ProcessPlace } from './proc.js';

// Is a conversation open in some process right now? Each agent leaves a different trace (its
// harness's `ownership`): claude a registry record, codex an open rollout file, others nothing
// fleetcom can read. "unknown" is an
// answer of its own: it never lets fleetcom claim a conversation is free or taken.

export interface LivenessOptions {
  /** The proc file system (tests pass a crafted one). */
  proc?: string;
  /** One scan of open files shared by many checks (see sharedOpenFiles). */
  openFiles?: () => OpenFiles | null;
}

/** Options whose open-file scan runs once, at the first open-file check, for all that follow. */
export function sharedOpenFiles(opts: LivenessOptions = {}): LivenessOptions {
  let scan: OpenFiles | null | undefined;
  return { ...opts, openFiles: () => (scan === undefined ? (scan = openFiles(opts.proc ?? PROC_ROOT, isStoreFile)) : scan) };
}

/** A path any harness's open-file probe may look for. */
function isStoreFile(target: string): boolean {
  return HARNESSES.some((h) => h.ownership.kind === 'open-file' && h.ownership.looksLike(target));
}

export function conversationLiveness(harness: HarnessName, home: string, id: string, opts: LivenessOptions = {}): Liveness {
  const proc = opts.proc ?? PROC_ROOT;
  const agent = harnessFor(harness);
  const probe = agent.ownership;
  switch (probe.kind) {
    case 'claude-registry':
      return claudeLiveness(home, id, proc);
    case 'open-file':
      return openFileLiveness(agent.name, probe.file(home, id), proc, opts.openFiles ?? (() => openFiles(proc, probe.looksLike)));
    case 'none':
      return { state: 'unknown', source: probe.why, why: 'only this fleet\'s tasks can be checked' };
  }
}

/** The agent holds its store file open while the conversation runs: a process with it open holds the conversation. */
function openFileLiveness(agent: string, rollout: string | null, proc: string, scan: () => OpenFiles | null): Liveness {
  if (rollout === null) return { state: 'free', source: `${agent} ${agent === 'codex' ? 'rollout' : 'store file'} (none exists)` };
  const open = scan();
  if (open === null) return { state: 'unknown', source: `open files in ${proc}`, why: `${proc} cannot be read` };
  const source = `open files in ${proc}${open.unreadable > 0 ? ` (${open.unreadable} process(es) of other users not readable)` : ''}`;
  const pid = open.holders.get(rollout);
  return pid === undefined ? { state: 'free', source } : { state: 'live', source, holder: placeOf(proc, pid) };
}

/** `pid 4242 on /dev/pts/3 (tmux pane %7)`. */
export function describePlace(place: ProcessPlace): string {
  const tty = place.tty ? ` on ${place.tty}` : '';
  const pane = place.tmux ? ` (tmux pane ${place.tmux.pane})` : '';
  return `pid ${place.pid}${tty}${pane}`;
}
