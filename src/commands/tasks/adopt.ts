// `fleetcom adopt [TARGET… | --all] [--json]`: agents someone started by hand in panes of the
// fleet's tmux server. Without a target it only lists them, with what each would become (or why
// it never will); with targets, or --all, it makes them tasks, their processes untouched.
import type { AgentPaneView } from '../../control/protocol.js';
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { ask } from '../ask.js';
import { alignColumns } from '../columns.js';

export interface AdoptOptions {
  all?: boolean;
  json?: boolean;
}

export async function runAdopt(targets: string[], opts: AdoptOptions, deps: Deps): Promise<number> {
  if (targets.length > 0 && opts.all) throw new UsageError('adopt takes TARGETs or --all, not both');
  for (const target of targets) if (!/^(%\d+|@\d+)$/.test(target)) throw new UsageError(`${target}: expected a pane (%N) or a window (@N)`);
  const caller = deps.env.TMUX?.split(',')[0] || null;
  if (targets.length === 0 && !opts.all) {
    const listed = await ask(deps, { op: 'adoptable', caller });
    deps.stdout.write(opts.json ? `${JSON.stringify(listed, null, 2)}\n` : formatAgentPanes(listed.panes, deps.env.HOME));
    if (listed.note !== null) deps.stderr.write(`${listed.note}\n`);
    return 0;
  }
  const result = await ask(deps, { op: 'adopt', targets: targets.length > 0 ? targets : null, caller });
  if (opts.json) deps.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else for (const task of result.adopted) deps.stdout.write(`${task.id}\n`);
  for (const task of result.adopted) deps.stderr.write(`adopted pane ${task.paneId} as task ${task.id}\n`);
  for (const pane of result.refused) deps.stderr.write(`not adopted: pane ${pane.paneId}: ${pane.why ?? 'refused'}\n`);
  if (result.adopted.length === 0 && result.refused.length === 0) deps.stderr.write('no pane runs an agent started by hand\n');
  // Refusals of panes named on purpose fail the command; --all reports them and goes on.
  return targets.length > 0 && result.refused.length > 0 ? 1 : 0;
}

/** The human table of the listing. */
export function formatAgentPanes(panes: readonly AgentPaneView[], home: string | undefined): string {
  if (panes.length === 0) return 'no pane runs an agent started by hand\n';
  const dir = (cwd: string | null) => (cwd === null ? '-' : home && (cwd === home || cwd.startsWith(`${home}/`)) ? `~${cwd.slice(home.length)}` : cwd);
  const rows = panes.map((p) => [
    p.paneId,
    `${p.session}:${p.windowId}${p.ownWindow ? '' : '+'}`,
    p.agent === null ? '-' : `${p.agent}${p.pid === null ? '' : ` ${p.pid}`}${p.underShell ? ' (shell)' : ''}`,
    dir(p.cwd),
    !p.adoptable ? 'refused' : p.conversationId ?? 'none',
    !p.adoptable ? (p.why ?? '') : p.why ?? `from ${p.idFrom ?? '?'}`,
  ]);
  const legend = panes.some((p) => !p.ownWindow) ? '(+: shares its window; adopting moves it to a window of its own)\n' : '';
  return alignColumns(['PANE', 'WINDOW', 'AGENT', 'DIR', 'CONVERSATION', 'FROM / WHY'], rows) + legend;
}
