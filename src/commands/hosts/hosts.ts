// `fleetcom hosts check [--hosts a,b] [--json]`: what each host needs to carry a fleet — ssh
// reaching it, fleetcom there speaking this one's remote protocol, tmux 3.2 or newer, and the
// agents on the PATH of its non-interactive ssh shell — and what is missing, per host. Exit 1
// when a host cannot carry a fleet (unreachable, no or another fleetcom, no tmux); a missing
// agent is only reported. `_host-report` is the remote half.
import { bool, nullable, object, record, str, int } from '../../control/shape.js';
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { hostFacts, type HostFacts } from '../../doctor/host-report.js';
import { askHosts, plainText } from '../../remote/fan-out.js';
import { chosenHosts } from '../../remote/hosts-list.js';
import type { SshRun } from '../../remote/ssh-process.js';
import { alignColumns } from '../columns.js';
import { hostSettings } from './host-link-of.js';
import { VERSION } from '../version.js';

const clean = (v: unknown, path?: string) => plainText(str(v, path));
const factsCheck = object({
  fleetcom: clean,
  remoteProtocol: int,
  node: clean,
  tmux: object({ version: nullable(clean), supported: bool, error: nullable(clean) }),
  agents: record(nullable(clean)),
  fleet: clean,
});

export function readFacts(run: SshRun): HostFacts {
  if (run.code !== 0) throw new Error(`its fleetcom could not report (exit ${run.code}): ${plainText(run.stderr.trim())}`);
  return factsCheck(JSON.parse(run.stdout));
}

interface Verdict {
  host: string;
  ok: boolean;
  facts: HostFacts | null;
  missing: string[];
}

/** Pure: what a host lacks, from its facts. */
export function missingOn(facts: HostFacts): { blocking: string[]; notes: string[] } {
  const blocking: string[] = [];
  const notes: string[] = [];
  if (facts.tmux.version === null) blocking.push(`tmux is missing there (${facts.tmux.error ?? 'not found'}): install tmux 3.2 or newer`);
  else if (!facts.tmux.supported) blocking.push(`its ${facts.tmux.version} is too old: install tmux 3.2 or newer`);
  for (const [agent, where] of Object.entries(facts.agents)) if (where === null) notes.push(`${agent} is not on the PATH of its ssh shell (its tasks would not start)`);
  if (facts.fleetcom !== VERSION) notes.push(`fleetcom ${facts.fleetcom} there, ${VERSION} here (the same remote protocol: they work together)`);
  return { blocking, notes };
}

export async function runHostsCheck(action: string | undefined, opts: { hosts?: string; json?: boolean }, deps: Deps): Promise<number> {
  if (action !== undefined && action !== 'check') throw new UsageError(`hosts ${action}: unknown action (hosts check)`);
  const settings = hostSettings(deps);
  const hosts = chosenHosts(opts.hosts, settings.hosts);
  const replies = await askHosts(settings.link, hosts, ['_host-report'], { deadlineMs: settings.timeoutMs, read: readFacts });
  const verdicts: Verdict[] = replies.map((r) => {
    if (r.failure !== undefined) return { host: r.host, ok: false, facts: null, missing: [r.failure.reason] };
    const { blocking, notes } = missingOn(r.value);
    return { host: r.host, ok: blocking.length === 0, facts: r.value, missing: [...blocking, ...notes] };
  });
  if (opts.json) {
    deps.stdout.write(`${JSON.stringify(verdicts, null, 2)}\n`);
  } else {
    const rows = verdicts.map((v) => [
      plainText(v.host),
      v.ok ? 'ok' : 'not ready',
      v.facts?.fleetcom ?? '-',
      v.facts?.tmux.version ?? '-',
      v.facts === null ? '-' : Object.entries(v.facts.agents).map(([a, where]) => (where === null ? `-${a}` : a)).join(' '),
      v.facts?.fleet ?? '-',
    ]);
    deps.stdout.write(alignColumns(['HOST', 'STATUS', 'FLEETCOM', 'TMUX', 'AGENTS', 'FLEET'], rows));
    for (const v of verdicts) for (const line of v.missing) deps.stdout.write(`${plainText(v.host)}: ${plainText(line)}\n`);
  }
  return verdicts.every((v) => v.ok) ? 0 : 1;
}

/** The remote half: this machine's facts as one JSON object. */
export async function runHostReport(deps: Deps): Promise<number> {
  deps.stdout.write(`${JSON.stringify(await hostFacts(VERSION, deps))}\n`);
  return 0;
}
