import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { joinCommandWords } from '../command-words.js';
import type { Deps } from '../../deps.js';
import { PROVEN_CLIENTS, PROVEN_ON } from '../../harness/proven-clients.js';
import { UsageError } from '../../errors.js';
import {
  detect,
  harnessFor,
  homeVarsToKeep,
  instrument,
  isValidId,
  readCodexRoute,
  resolveHome,
  rewriteCommand,
  type CodexRoute,
  type Detection,
  type HarnessName,
} from '../../harness/index.js';

export interface ExplainOptions {
  json?: boolean;
  id?: string;
  cwd?: string;
}

/** `explain --json` output: exactly these keys (issue 2). */
export interface Explanation {
  harness: HarnessName | null;
  form: 'bare' | 'resume' | 'opaque';
  targetId: string | null;
  pinnedId: string | null;
  shell: string;
  env: Record<string, string>;
  codexRoute: 'vacant' | 'chain' | 'opaque' | null;
  resumeCommand: string | null;
  note: string | null;
  /** The agent home the task would use, and whether a save keeps it in the recipe (it differs from HOME's default). */
  home: AgentHome | null;
  /** The versions of this agent the real-client suite last proved, and what each channel did. */
  provenOn: Array<{ version: string; node: string; channels: Readonly<Record<string, string>> }>;
}

export interface AgentHome {
  variable: string;
  path: string;
  savedInRecipe: boolean;
}

// Paths a supervisor decides at spawn time, shown as literal placeholders.
export const NAMESPACE_PLACEHOLDER = '<namespace>';
export const CAPTURE_PLACEHOLDER = '<namespace>/task-<id>-<run>.json';

/** Pure: how `command` would be treated, given the caller's codex route. */
export function explainCommand(
  command: string,
  opts: { id?: string | undefined; codexRoute: () => CodexRoute; newId: () => string; home?: (harness: HarnessName) => AgentHome | null },
): Explanation {
  const detection = detect(command);
  const notes: string[] = [];
  let shell = command;
  let env: Record<string, string> = {};
  let pinnedId: string | null = null;
  let route: CodexRoute | null = null;

  if (detection.form === 'opaque') {
    notes.push(`opaque: ${detection.reason}; it runs, displays and saves verbatim`);
  } else {
    route = detection.harness === 'codex' ? opts.codexRoute() : { kind: 'vacant' };
    const plan = instrument({
      detection,
      namespace: NAMESPACE_PLACEHOLDER,
      captureFile: CAPTURE_PLACEHOLDER,
      newId: opts.newId,
      codexRoute: route,
      home: '<home>',
      env: {},
    });
    shell = command + plan.suffix;
    env = plan.env;
    pinnedId = detection.form === 'bare' ? plan.pinnedId : null; // a resume form's id is its targetId
    if (route.kind === 'opaque') notes.push(`codex notify route is opaque (${route.reason}): no capture, exit hints and store correlation still apply`);
    if (detection.harness !== 'codex') route = null;
  }

  let resumeCommand: string | null = null;
  if (opts.id !== undefined) {
    const agent = detection.harness === null ? null : harnessFor(detection.harness);
    const valid = agent === null ? isValidId(opts.id) : agent.isId(opts.id);
    const shape = agent === null ? '36 characters, lowercase hex in 8-4-4-4-12' : `${agent.name}: ${agent.idShape}`;
    if (!valid) notes.push(`--id ${JSON.stringify(opts.id)} is not a valid id (${shape}): the command stays unchanged`);
    resumeCommand = rewriteCommand(command, valid ? opts.id : null);
  }

  return {
    harness: detection.harness,
    form: detection.form,
    targetId: targetOf(detection),
    pinnedId,
    shell,
    env,
    codexRoute: route?.kind ?? null,
    resumeCommand,
    note: notes.length > 0 ? notes.join('; ') : null,
    home: detection.harness !== null && opts.home ? opts.home(detection.harness) : null,
    provenOn: PROVEN_CLIENTS.filter((c) => c.agent === detection.harness).map(({ version, node, channels }) => ({ version, node, channels })),
  };
}

/** The home the caller's environment gives `harness`; kept in a recipe unless it is `$HOME/.<agent>`. */
export function agentHome(harness: HarnessName, env: Readonly<Record<string, string | undefined>>): AgentHome | null {
  let path: string;
  try {
    path = resolveHome(harness, env);
  } catch {
    return null; // neither the agent's variable nor HOME: nothing to show
  }
  const vars = harnessFor(harness).home.varsFor(path);
  const variable = Object.keys(vars).join(' ') || harnessFor(harness).home.vars.join(' ');
  return { variable, path, savedInRecipe: Object.keys(homeVarsToKeep(harness, path, env.HOME ?? '')).length > 0 };
}

function targetOf(detection: Detection): string | null {
  return detection.form === 'resume' ? detection.targetId : null;
}

export async function runExplain(words: string[], opts: ExplainOptions, deps: Deps): Promise<number> {
  if (words.length === 0) throw new UsageError("explain needs a command after '--'");
  if (opts.cwd !== undefined) checkDirectory(resolve(deps.cwd, opts.cwd));
  const command = joinCommandWords(words);
  const explanation = explainCommand(command, {
    id: opts.id,
    codexRoute: () => readCodexRoute(resolveHome('codex', deps.env)),
    newId: randomUUID,
    home: (harness) => agentHome(harness, deps.env),
  });
  deps.stdout.write(opts.json ? `${JSON.stringify(explanation, null, 2)}\n` : formatExplanation(command, explanation));
  return 0;
}

function checkDirectory(dir: string): void {
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new UsageError(`--cwd ${dir} is not an existing directory`);
}

export function formatExplanation(command: string, e: Explanation): string {
  const envText = Object.entries(e.env)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  const rows: [string, string][] = [
    ['command', command],
    ['harness', e.harness === null ? 'none (opaque)' : `${e.harness} (${e.form})`],
    ['target id', e.targetId ?? '-'],
    ['pinned id', e.pinnedId ?? '-'],
    ['shell -c', e.shell],
    ['env', envText === '' ? '-' : envText],
    ['codex route', e.codexRoute ?? '-'],
    ['proven on', provenLine(e)],
    ...e.provenOn.flatMap((c) => Object.entries(c.channels).map(([channel, what]): [string, string] => ['', `${c.version} ${channel}: ${what}`])),
    ['home', e.home === null ? '-' : `${e.home.variable}=${e.home.path}${e.home.savedInRecipe ? ' (a save keeps it in the recipe)' : " (HOME's default)"}`],
    ['resume', e.resumeCommand ?? '- (give --id UUID to see the rewrite)'],
    ['note', e.note ?? '-'],
  ];
  return rows.map(([k, v]) => `${k.padEnd(12)}${v}\n`).join('');
}

function provenLine(e: Explanation): string {
  if (e.provenOn.length === 0) return e.harness === null ? '-' : `no ${e.harness} version is proven by the real-client suite`;
  const versions = e.provenOn.map((c) => `${c.version} (Node ${c.node.replace(/^v/, '')})`).join(', ');
  return `${e.harness} ${versions}, by the real-client suite on ${PROVEN_ON.date} (tmux ${PROVEN_ON.tmux.replace(/^tmux /, '')})`;
}
