// `doctor` of a recipe with hosts: each host's part is checked there (`doctor - --json`, the
// part on stdin), since its directories, programs and conversations are that host's. A host's
// report is input: read through a shape check, its text cleared of control characters.
import { int, list, nullable, object, oneOf, str } from '../../control/shape.js';
import type { Deps } from '../../deps.js';
import type { EntryReport, Verdict } from '../../doctor/checks.js';
import { callHost } from '../../remote/host-link.js';
import { plainText } from '../../remote/fan-out.js';
import { describeFailure } from '../../remote/outcome.js';
import { hostRecipeText, type HostDirs } from '../../sessions/index.js';
import { canPrompt, hostSettings } from './host-link-of.js';

export interface HostReport {
  host: string;
  /** The host's `doctor - --json`, read through a shape check. */
  report: { entries: EntryReport[]; failed: number } | null;
  error: string | null;
}

const clean = (check: (v: unknown, path?: string) => string) => (v: unknown, path?: string) => plainText(check(v, path));

const hostReportCheck = object({
  entries: list(object({
    dir: clean(str), command: clean(str), name: nullable(clean(str)),
    verdict: oneOf<Verdict>({ ok: true, unsure: true, fail: true }), why: clean(str), todo: clean(str),
  })),
  failed: int,
});

export async function doctorOnHosts(name: string, hosts: HostDirs, deps: Deps): Promise<HostReport[]> {
  const { link, timeoutMs } = hostSettings(deps);
  const batch = !canPrompt();
  const out: HostReport[] = [];
  for (const [host, dirs] of hosts) {
    const call = await callHost(link, host, ['doctor', '-', '--json'], { deadlineMs: null, batch, connectTimeoutSeconds: timeoutMs / 1000, input: hostRecipeText(name, dirs) });
    if (call.failure !== null) {
      out.push({ host, report: null, error: describeFailure(call.failure).replace(/^host \S+: /, '') });
      continue;
    }
    try {
      const report = hostReportCheck(JSON.parse(call.run.stdout));
      out.push({ host, report: { entries: report.entries.map((e) => ({ ...e, unresumable: false, fix: null, checks: [] })), failed: report.failed }, error: null });
    } catch (error) {
      out.push({ host, report: null, error: `its doctor sent no readable report (exit ${call.run.code}): ${plainText(call.run.stderr.trim() || (error as Error).message)}` });
    }
  }
  return out;
}
