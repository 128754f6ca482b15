// FleetTmux on a real tmux server: windows are made in the fleet's own session, and panes are
// looked up on the whole server, so a task window the user moved to another session is still
// found (its pane id and window id stay the same).
import { setWindowOption, setWindowOptions, showGlobalEnvironment, unsetWindowOption, windowOptionValues } from '../../tmux/options.js';
import { capturePane, listPanes, livePanePids, needsReaping, paneWithText, reapChildren, type PaneRecord } from '../../tmux/panes.js';
import { panePlacesQuery, takeOverPane } from '../../tmux/pane-places.js';
import { runQueries, textQuery } from '../../tmux/queries.js';
import type { TmuxRun } from '../../tmux/runner.js';
import { pasteText, paneScreen, sendKeys } from '../../tmux/typing.js';
import { killWindow, killWindows, newWindows, renameWindow, renameWindows, respawnPane, showWindow } from '../../tmux/windows.js';
import { LEADING_GLYPH } from '../supervisor/glyphs.js';
import type { FleetTmux, PaneInfo } from './tmux-port.js';
import { SPEC_CHARS, SPEC_OPTION } from '../spawn/window-spec.js';

/**
 * The panes, read a second time when one had exited unreaped: listPanes has then nudged the
 * server to reap, and the second read usually knows the exit status.
 */
async function reapedPanes(tmux: TmuxRun, sessionId: string | null): Promise<PaneRecord[]> {
  const panes = await listPanes(tmux, sessionId);
  return panes.some(needsReaping) ? listPanes(tmux, sessionId) : panes;
}

export function paneInfo(p: PaneRecord): PaneInfo {
  return {
    paneId: p.paneId,
    windowId: p.windowId,
    dead: p.paneDead,
    exited: p.paneExited,
    deadStatus: p.paneDeadStatus,
    deadSignal: p.paneDeadSignal,
    pid: p.panePid,
    tty: p.paneTty,
    activity: (p.windowActivity ?? 0) * 1000,
    title: p.paneTitle,
    task: p.fleetcomTask === null ? null : String(p.fleetcomTask),
    run: p.fleetcomRun === null ? null : String(p.fleetcomRun),
    socket: p.fleetcomSocket,
    windowName: p.windowName.replace(LEADING_GLYPH, '').replaceAll('##', '#'),
  };
}

/**
 * `primed.globalEnvironment`: the global environment the start read with its other queries,
 * answered once instead of asking tmux again (the start clears it after its load, so a later
 * launch reads it afresh).
 */
export function fleetTmux(tmux: TmuxRun, sessionId: string, primed: { globalEnvironment: Record<string, string> | null } = { globalEnvironment: null }): FleetTmux {
  return {
    globalEnvironment: async () => {
      const read = primed.globalEnvironment;
      primed.globalEnvironment = null;
      return read ?? showGlobalEnvironment(tmux);
    },
    newWindows: (specs) => newWindows(tmux, specs.map((spec) => ({ ...spec, session: sessionId }))),
    respawnPane: (paneId, spec) => respawnPane(tmux, { ...spec, paneId, clearHistory: true }),
    retainedText: (paneId) => capturePane(tmux, paneId, { history: true }),
    listPanes: async () => (await reapedPanes(tmux, null)).map(paneInfo),
    endedPane: async (paneId) => {
      const read = await paneWithText(tmux, paneId);
      return read && { pane: paneInfo(read.record), text: read.text };
    },
    reapChildren: () => reapChildren(tmux),
    livePanePids: (paneIds) => livePanePids(tmux, paneIds),
    setWindowOption: (windowId, option, value) => setWindowOption(tmux, windowId, option, value),
    unsetWindowOption: (windowId, option) => unsetWindowOption(tmux, windowId, option),
    showWindow: (windowId, client) => showWindow(tmux, windowId, client),
    setWindowOptions: (options) => setWindowOptions(tmux, options),
    windowSpecs: () => windowOptionValues(tmux, SPEC_OPTION, SPEC_CHARS),
    renameWindow: (windowId, name) => renameWindow(tmux, windowId, name),
    renameWindows: (renames) => renameWindows(tmux, renames),
    killWindow: (windowId) => killWindow(tmux, windowId),
    panePlaces: async () => {
      const [places, socket] = await runQueries(tmux, [panePlacesQuery(), textQuery(['display-message', '-p', '#{socket_path}'])]);
      return { places, socket };
    },
    takeOverPane: (spec) => takeOverPane(tmux, spec),
    killWindows: (windowIds) => killWindows(tmux, windowIds),
    pasteText: (paneId, text) => pasteText(tmux, paneId, text),
    sendKeys: (paneId, ...keys) => sendKeys(tmux, paneId, ...keys),
    paneScreen: (paneId) => paneScreen(tmux, paneId),
  };
}
