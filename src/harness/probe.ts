import type { Attention } from './attention.js';
import { hasShellSyntax, programBasename } from './program-word.js';

// Adopting an agent someone started by hand (`fleetcom adopt`): is a process this agent, and
// which conversation do its own traces say it holds? Pure: what is read of the process (argv,
// environment, directory, open files) is read from /proc outside the harness and passed in;
// each agent's probe reads only under the home it is given.

/** What fleetcom read of a running process, to ask an agent's probe about it. */
export interface AgentProcess {
  pid: number;
  /** Field 22 of its stat (clock ticks after boot): with the pid it names this process for good. */
  start: string;
  argv: readonly string[];
  env: Readonly<Record<string, string>>;
  cwd: string;
  /** What it and its descendants hold open, or why that cannot be listed. */
  open: OpenFiles | { unreadable: string };
}

export interface OpenFiles {
  /** Files it and its descendants in its own session hold open. */
  files: readonly string[];
  /**
   * Files held open by descendants that left its session with setsid: daemons, which may serve
   * other processes too (codex's app-server holds every connected TUI's rollout).
   */
  daemonFiles: ReadonlyArray<{ pid: number; file: string }>;
}

/** The conversation a running agent holds, by its own traces. */
export type HeldConversation =
  /** `from`: which trace named it (`claude registry <file>`). */
  | { kind: 'id'; id: string; from: string }
  /** The traces name none, or not one that is surely this process's: adopted with no id. */
  | { kind: 'none'; why: string }
  /** The traces exist but cannot be read: never adopted. */
  | { kind: 'unreadable'; why: string };

export interface ProcessTraces {
  conversation: HeldConversation;
  /** What the traces say of its attention; null when they say nothing. */
  attention: { attention: Attention; message: string | null } | null;
}

export interface AgentProbe {
  /**
   * The program word a resume command starts with when `argv` runs this agent, else null.
   * `pathDirs`: the directories of the process's PATH.
   */
  program(argv: readonly string[], pathDirs: readonly string[]): string | null;
  /** What the process's own traces under `home` say. */
  traces(process: AgentProcess, home: string): ProcessTraces;
}

/** Programs that run a script named by their next word (`node /usr/local/bin/codex`). */
const INTERPRETERS = new Set(['node', 'nodejs', 'bun']);

/**
 * The program word of a process running agent `name`: its argv[0] when that is the agent
 * (`claude`, `/opt/bin/claude`: a compiled binary, or a script run through its `#!`), else an
 * interpreter's script (`node /usr/local/bin/codex`, as the kernel runs a `#!/usr/bin/env node`
 * script: the script path as found on PATH, written back as the bare name when its directory is
 * on the process's PATH). A word a resume command could not start with (shell syntax, spaces)
 * becomes the bare name. null: not this agent.
 */
export function agentProgram(name: string, argv: readonly string[], pathDirs: readonly string[]): string | null {
  const at = programIndex(name, argv);
  const word = at === null ? undefined : argv[at];
  if (at === null || word === undefined) return null;
  const dir = word.slice(0, word.lastIndexOf('/'));
  const typed = at === 1 && word.includes('/') && pathDirs.includes(dir) ? name : word;
  // A command's words are split on blanks: a word holding one could not start a resume command.
  return hasShellSyntax(typed) || /[ \t]/.test(typed) ? name : typed;
}

/** The agent's own arguments (after its program word, or after the script an interpreter runs). */
export function agentArgs(name: string, argv: readonly string[]): readonly string[] {
  const at = programIndex(name, argv);
  return at === null ? [] : argv.slice(at + 1);
}

/** Where the agent's program word is in argv: 0, 1 after an interpreter, or null. */
function programIndex(name: string, argv: readonly string[]): number | null {
  const [first, second] = argv;
  if (first === undefined) return null;
  if (programBasename(first) === name) return 0;
  if (second !== undefined && INTERPRETERS.has(programBasename(first)) && programBasename(second) === name) return 1;
  return null;
}

/** Traces that name no conversation (the process is adopted with none) and no attention. */
export function namesNone(why: string): ProcessTraces {
  return { conversation: { kind: 'none', why }, attention: null };
}

/** Traces that exist but cannot be read: the process is not adopted. */
export function unreadableTraces(why: string): ProcessTraces {
  return { conversation: { kind: 'unreadable', why }, attention: null };
}
