// Turns a requested command into what tmux runs. The harness
// decides; this file only gathers the inputs (namespace, homes) and checks.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { FleetError } from '../../errors.js';
import {
  detect,
  instrument,
  rebindResume,
  resolveHome,
  type HarnessName,
} from '../../harness/index.js';
import { checkCommandSize, dropInherited, windowEnv } from './window-env.js';

export interface LaunchRequest {
  id: number;
  run: number;
  command: string;
  cwd: string;
  /** The caller's whole environment. */
  env: Record<string, string>;
}

export interface LaunchInputs {
  /** The capture namespace, installed on demand; null when install failed (uninstrumented). */
  namespace: () => string | null;
  capturePath: (namespace: string, id: number, run: number) => string;
  globalEnv: Record<string, string>;
  newId: () => string;
}

export interface Launch {
  /** What runs: the requested command, or the resume it was redirected to (9.5). */
  command: string;
  /** Why the command was redirected, for the log; null when it runs as requested. */
  rebound: string | null;
  harness: HarnessName | null;
  pinnedId: string | null;
  targetId: string | null;
  captureFile: string | null;
  home: string | null;
  argv: string[];
  windowEnv: Record<string, string>;
  path: string | undefined;
}

export function planLaunch(request: LaunchRequest, inputs: LaunchInputs): Launch {
  checkDirectory(request.cwd);
  const shell = findShell(request.env);
  const requested = detect(request.command);
  // A resume of a child's conversation (a codex subagent thread) resumes its root instead.
  const rebinding = requested.form === 'resume'
    ? rebindResume(request.command, { home: resolveHome(requested.harness, request.env), cwd: request.cwd })
    : null;
  const command = rebinding?.command ?? request.command;
  const detection = rebinding ? detect(command) : requested;
  let plan = { suffix: '', env: {} as Record<string, string>, pinnedId: null as string | null, captures: false };
  let harness: HarnessName | null = null;
  let home: string | null = null;
  let captureFile: string | null = null;
  const namespace = detection.form === 'opaque' ? null : inputs.namespace();
  if (detection.form !== 'opaque' && namespace !== null) {
    harness = detection.harness;
    home = resolveHome(harness, request.env);
    captureFile = inputs.capturePath(namespace, request.id, request.run);
    plan = instrument({ detection, namespace, captureFile, newId: inputs.newId, home, env: request.env });
    if (!plan.captures) captureFile = null;
  }
  const argv = [...dropInherited(inputs.globalEnv), shell, '-c', command + plan.suffix];
  const env = windowEnv(request.env, inputs.globalEnv, plan.env);
  checkCommandSize(argv, env);
  return {
    command,
    rebound: rebinding ? `${rebinding.why}; runs ${command} instead` : null,
    harness,
    pinnedId: plan.pinnedId,
    targetId: detection.form === 'resume' && harness !== null ? detection.targetId : null,
    captureFile,
    home,
    argv,
    windowEnv: env,
    path: request.env.PATH,
  };
}

function checkDirectory(cwd: string): void {
  let ok = false;
  try {
    ok = isAbsolute(cwd) && statSync(cwd).isDirectory();
  } catch {
    ok = false;
  }
  if (!ok) throw new FleetError(`working directory ${cwd} does not exist or is not a directory`);
}

/** The requesting client's $SHELL (fallback /bin/sh), which must be executable. */
function findShell(env: Record<string, string>): string {
  const shell = env.SHELL || '/bin/sh';
  const candidates = isAbsolute(shell)
    ? [shell]
    : (env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, shell));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // try the next one
    }
  }
  throw new FleetError(`shell ${shell} (from $SHELL) is not an executable file`);
}
