// `load` of a recipe with hosts: each host's part goes to that host's fleetcom (`load -`, the
// part on stdin as the version-1 file it reads), which expands its directories against its own
// HOME and spawns with its own environment. A host where no fleet runs gets one first
// (`fleetcom up --detach` there). Where a person can answer ssh's prompts the hosts are done one
// after another (one prompt at a time on this terminal), else all at once.
import type { Deps } from '../../deps.js';
import { callHost, type CallOptions, type HostLink } from '../../remote/host-link.js';
import { plainText } from '../../remote/fan-out.js';
import { describeFailure } from '../../remote/outcome.js';
import { hostRecipeText, type HostDirs, type RecipeEntry } from '../../sessions/index.js';
import { canPrompt, hostSettings } from './host-link-of.js';

const NO_FLEET = 3;

interface HostLoad {
  host: string;
  /** What to tell the user, line by line (without the host). */
  lines: string[];
  ok: boolean;
}

/** Loads every host's part; returns how many hosts failed (each reported on stderr). */
export async function loadOnHosts(name: string, hosts: HostDirs, deps: Deps, loadArgs: readonly string[] = []): Promise<number> {
  const { link, timeoutMs } = hostSettings(deps);
  const interactive = canPrompt();
  const opts: CallOptions = { deadlineMs: null, batch: !interactive, connectTimeoutSeconds: timeoutMs / 1000 };
  const jobs = [...hosts].map(([host, dirs]) => () => loadOn(link, host, hostRecipeText(name, dirs), opts, loadArgs));
  const results: HostLoad[] = [];
  if (interactive) for (const job of jobs) results.push(await job());
  else results.push(...(await Promise.all(jobs.map((job) => job()))));
  for (const r of results) for (const line of r.lines) deps.stderr.write(`host ${plainText(r.host)}: ${plainText(line)}\n`);
  return results.filter((r) => !r.ok).length;
}

async function loadOn(link: HostLink, host: string, text: string, opts: CallOptions, loadArgs: readonly string[]): Promise<HostLoad> {
  const lines: string[] = [];
  const load = () => callHost(link, host, ['load', ...loadArgs, '-'], { ...opts, input: text });
  let call = await load();
  if (call.failure === null && call.run.code === NO_FLEET) {
    const up = await callHost(link, host, ['up', '--detach'], opts);
    if (up.failure !== null) return { host, lines: [describeFailure(up.failure).replace(/^host \S+: /, '')], ok: false };
    if (up.run.code !== 0) return { host, lines: ['could not start a fleet there:', ...textLines(up.run.stderr)], ok: false };
    lines.push(`started a fleet there (tmux session ${up.run.stdout.trim()})`);
    call = await load();
  }
  if (call.failure !== null) return { host, lines: [...lines, describeFailure(call.failure).replace(/^host \S+: /, '')], ok: false };
  return { host, lines: [...lines, ...textLines(call.run.stderr)], ok: call.run.code === 0 };
}

function textLines(text: string): string[] {
  return text.split('\n').map((l) => l.replace(/\r$/, '')).filter((l) => l !== '');
}

/** How many tasks a host's part holds. */
export function hostTaskCount(dirs: ReadonlyMap<string, readonly RecipeEntry[]>): number {
  let n = 0;
  for (const entries of dirs.values()) n += entries.length;
  return n;
}
