// Carrying out the dashboard's actions: supervisor requests, tmux calls and session files.
// Each returns the text for the status line (or the load choices for `o`).
import path from 'node:path';
import { fleetRecipe, NOTHING_TO_SAVE, savedMessage } from '../fleet/ids/fleet-recipe.js';
import { removeFile, writeFileAtomicSync } from '../fs-safety.js';
import type { FleetUiContext } from '../fleet/lifecycle/fleet-ui.js';
import { labelOf, type Task } from '../fleet/supervisor/task.js';
import { quoteShell } from '../harness/index.js';
import { abbreviateDir, hostsLeftMessage, listSessions, missingDirWarning, MISSING_DIR_LABEL, normalizeSessionName, readSession, saveNamed } from '../sessions/index.js';
import { warningLines } from '../warnings.js';
import { capturePanes, displayPopup, lastWindow } from '../tmux/screens.js';
import { displayMessage } from '../tmux/sessions.js';
import { selectWindow } from '../tmux/windows.js';
import { fit } from './cells.js';
import type { Action } from './keys.js';
import type { AdoptChoice, FinishShown, HistoryChoice, LoadChoice } from './model.js';
import { finishConfirmed, finishPlanShown } from './finish-actions.js';
import { formatAge } from '../format-age.js';
import type { HostsFeed } from './host-rows.js';
import { historyChoices, resumeConversation } from './history-actions.js';

/** What the fleet loop hands the dashboard (fleet-ui.ts), and the hosts `up` reaches (none: this machine only). */
export type ActionDeps = FleetUiContext & { hosts?: HostsFeed | null };

export type Outcome = { status: string } | { choices: LoadChoice[] } | { agentPanes: AdoptChoice[] } | { history: HistoryChoice[]; where: string } | { finish: FinishShown };

export async function perform(action: Action, deps: ActionDeps): Promise<Outcome> {
  const task = 'id' in action ? [...deps.fleet.tasks()].find((t) => t.id === action.id) : undefined;
  const ref = 'id' in action ? String(action.id) : '';
  switch (action.kind) {
    case 'select-window':
      if (task) await selectWindow(deps.tmux, task.windowId);
      return { status: '' };
    case 'peek':
      return { status: task ? await peek(task, deps) : '' };
    case 'run': {
      const { id } = await deps.fleet.handle({ op: 'run', command: action.command, cwd: deps.cwd, env: deps.env, name: null, group: null });
      return { status: `started task ${id}` };
    }
    case 'rerun':
      await deps.fleet.handle({ op: 'rerun', task: ref });
      return { status: `task ${ref} rerun` };
    case 'kill':
      await deps.fleet.handle({ op: 'kill', task: ref });
      return { status: `task ${ref} stopped` };
    case 'rm':
      await deps.fleet.handle({ op: 'rm', task: ref });
      return { status: `task ${ref} removed` };
    case 'tag':
      await deps.fleet.handle({ op: 'tag', task: ref });
      return { status: `task ${ref} ${task?.tagged ? 'tagged in use' : 'untagged'}` };
    case 'rename':
      await deps.fleet.handle({ op: 'rename', task: ref, name: action.name });
      return { status: action.name ? `task ${ref} renamed ${action.name}` : `task ${ref}: name cleared` };
    case 'group':
      await deps.fleet.handle({ op: 'group', task: ref, group: action.group });
      return { status: action.group ? `task ${ref} in group ${action.group}` : `task ${ref}: group cleared` };
    case 'save':
      return { status: await save(action.name, deps) };
    case 'list-sessions':
      return { choices: await loadChoices(deps) };
    case 'load':
      return { status: await load(action.choice, deps) };
    case 'list-agent-panes':
      return { agentPanes: await agentPanes(deps) };
    case 'adopt':
      return { status: await adoptPane(action.paneId, deps) };
    case 'list-history':
      return historyChoices(action.cwd, deps);
    case 'resume-conversation':
      return { status: await resumeConversation(action.key, deps) };
    case 'finish-plan':
      return finishPlanShown(action.id, deps);
    case 'finish':
      return { status: await finishConfirmed(action.id, action.expect, deps) };
    case 'last-window':
      await lastWindow(deps.tmux, deps.sessionId);
      return { status: '' };
    case 'quit':
      await deps.quit();
      return { status: 'fleet down' };
    case 'host-show':
    case 'host-peek':
    case 'host-rerun': {
      const hosts = deps.hosts;
      if (!hosts) return { status: 'no hosts are reached from this fleet' };
      const t = action.target;
      if (action.kind === 'host-show') return { status: await hosts.show(t) };
      if (action.kind === 'host-rerun') return { status: await hosts.rerun(t) };
      // capture-pane -p ends with the screen's empty lines: the popup shows what was written.
      await popup((await hosts.capture(t)).replace(/\n+$/, ''), ` ${t.host}: task ${t.id} `, `peek-${t.host.replace(/[^\w.-]/g, '_')}-${t.id}`, deps);
      return { status: '' };
    }
  }
}

/** `fleetcom save NAME`, from inside: the same recipe and store. */
async function save(name: string, deps: ActionDeps): Promise<string> {
  const tasks = await deps.fleet.handle({ op: 'save' });
  if (tasks.length === 0) return NOTHING_TO_SAVE;
  const recipe = fleetRecipe(normalizeSessionName(name), tasks);
  const saved = await saveNamed(deps.sessionDir, name, recipe, deps.home);
  return `${savedMessage(recipe).trim()} in ${saved.file}`;
}

async function loadChoices(deps: ActionDeps): Promise<LoadChoice[]> {
  const { saved, recovery } = await listSessions(deps.sessionDir);
  const ago = (d: Date) => formatAge(deps.now() - d.getTime());
  const count = (n: number | null, error: string | null) => (n === null ? `unreadable: ${error ?? ''}` : `${n} task(s)`);
  return [
    ...saved.map((s) => ({ label: `${s.name}   ${count(s.tasks, s.error)} · saved ${ago(s.modified)} ago`, file: s.file })),
    ...recovery.map((r) => ({ label: `${r.label}   ${count(r.tasks, r.error)} · recovery snapshot${r.closed ? ' (closed)' : ''}`, file: r.file })),
  ];
}

async function load(choice: LoadChoice, deps: ActionDeps): Promise<string> {
  const session = await readSession(choice.file, { sessionDir: deps.sessionDir, home: deps.home, cwd: deps.cwd });
  const left = hostsLeftMessage(session);
  const result = await deps.fleet.handle({ op: 'load', tasks: session.tasks, env: deps.env });
  const held = result.skipped ?? [];
  // Summed up by reason, as the CLI does: a recipe of thousands of entries must not flood the log.
  const more = `fleetcom load --verbose lists every one`;
  const lines = [
    ...warningLines(session.skipped.map(missingDirWarning), { label: `load: ${MISSING_DIR_LABEL}`, noun: 'directories', more }),
    ...warningLines(result.errors, { label: 'load: not loaded: ', more }),
    ...warningLines(held, { label: 'load: skipped: ', more }),
    ...(left === null ? [] : [`load: ${left}`]),
  ];
  for (const line of lines) deps.log(line);
  const problems = session.skipped.length + result.errors.length + held.length + (left === null ? 0 : 1);
  return `loaded '${session.name}': ${result.ids.length} task(s)${problems ? ` (${problems} problem(s), see the log)` : ''}`;
}

/** `fleetcom adopt` from inside: the panes of the fleet's server running agents started by hand. */
async function agentPanes(deps: ActionDeps): Promise<AdoptChoice[]> {
  const listed = await deps.fleet.handle({ op: 'adoptable', caller: null });
  return listed.panes.map((p) => {
    const where = `${p.paneId} ${p.session}:${p.windowId}  ${p.agent ?? '?'}${p.pid === null ? '' : ` ${p.pid}`}  ${abbreviateDir(p.cwd ?? '-', deps.home)}`;
    const what = !p.adoptable ? `refused: ${p.why ?? ''}` : p.conversationId ? `conversation ${p.conversationId}` : `no conversation id: ${p.why ?? ''}`;
    return { label: `${where}  ${what}`, paneId: p.paneId, refused: p.adoptable ? null : (p.why ?? 'refused') };
  });
}

async function adoptPane(paneId: string, deps: ActionDeps): Promise<string> {
  const result = await deps.fleet.handle({ op: 'adopt', targets: [paneId], caller: null });
  const [task] = result.adopted;
  if (task) return `adopted pane ${task.paneId} as task ${task.id}`;
  return `pane ${paneId} not adopted: ${result.refused[0]?.why ?? 'it no longer runs an agent'}`;
}

/** A popup over the dashboard showing the task's screen as it is now; any key closes it. */
async function peek(task: Task, deps: ActionDeps): Promise<string> {
  const screen = (await capturePanes(deps.tmux, [task.paneId])).get(task.paneId) ?? '';
  await popup(screen, ` task ${task.id}: ${labelOf(task)} `, `peek-${task.id}`, deps);
  return '';
}

/**
 * Shows `screen` (its last lines, each cut to the popup: fit() also turns control characters,
 * a host's included, into spaces) in a popup over the dashboard until a key is pressed.
 */
async function popup(screen: string, title: string, name: string, deps: ActionDeps): Promise<void> {
  const size = await displayMessage(deps.tmux, deps.pane, '#{window_width} #{window_height}');
  const [width = 80, height = 24] = size.split(' ').map(Number);
  const inner = { w: Math.max(10, width - 4), h: Math.max(3, height - 4) };
  const lines = screen.split('\n').slice(-inner.h).map((l) => fit(l, inner.w).trimEnd());
  const file = path.join(deps.scratchDir, `${name}-${process.pid}.txt`);
  writeFileAtomicSync(file, lines.join('\n'));
  const q = quoteShell(file);
  try {
    await displayPopup(deps.tmux, {
      target: deps.pane, width: inner.w + 2, height: inner.h + 2, title: fit(title, inner.w).trimEnd(),
      command: `printf '\\033[?25l'; cat ${q}; rm -f ${q}; stty -icanon -echo; dd bs=1 count=1 >/dev/null 2>&1`,
    });
  } catch (error) {
    removeFile(file);
    throw error;
  }
}
