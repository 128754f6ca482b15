// What this machine offers a fleetcom that drives it over ssh (`fleetcom hosts check` asks it
// as `_host-report`): its fleetcom and the remote protocol it speaks, Node, tmux, each agent
// on PATH, and whether a fleet runs. Printed as one JSON object; the asking side says what is
// missing.
import { callSupervisor } from '../control/client.js';
import type { Deps } from '../deps.js';
import { errorMessage, NoFleetError } from '../errors.js';
import { HARNESSES } from '../harness/index.js';
import { fleetRuntime } from '../paths.js';
import { REMOTE_PROTOCOL } from '../remote/protocol-version.js';
import { TmuxRunner } from '../tmux/runner.js';
import { isSupported, MIN_VERSION, version } from '../tmux/version.js';
import { callerEnv } from '../deps.js';
import { findProgram } from './checks.js';

export interface HostFacts {
  fleetcom: string;
  remoteProtocol: number;
  node: string;
  tmux: { version: string | null; supported: boolean; error: string | null };
  /** Each agent fleetcom knows → where it would run from, or null when it is not on PATH. */
  agents: Record<string, string | null>;
  fleet: 'running' | 'none' | string;
}

export async function hostFacts(fleetcomVersion: string, deps: Deps): Promise<HostFacts> {
  const env = callerEnv(deps);
  let tmux: HostFacts['tmux'];
  try {
    const v = await version(new TmuxRunner({ env }));
    tmux = { version: v.raw, supported: isSupported(v), error: isSupported(v) ? null : `older than ${MIN_VERSION.major}.${MIN_VERSION.minor}` };
  } catch (error) {
    tmux = { version: null, supported: false, error: errorMessage(error) };
  }
  const agents = Object.fromEntries(HARNESSES.map((h) => [h.name, findProgram(h.name, { env, cwd: deps.cwd })]));
  let fleet: string;
  try {
    await callSupervisor(fleetRuntime(deps.env).socket, { op: 'status' });
    fleet = 'running';
  } catch (error) {
    fleet = error instanceof NoFleetError ? 'none' : errorMessage(error);
  }
  return { fleetcom: fleetcomVersion, remoteProtocol: REMOTE_PROTOCOL, node: process.version, tmux, agents, fleet };
}
