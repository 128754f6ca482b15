// Typed tmux operations bound to one runner: `const tmux = createTmux(runner)` gives them all
// as one object (the integration kit drives its servers with it). The supervisor holds a
// narrower port instead, fleetTmux (fleet/tmux-adapter.ts), which unit tests fake. Each
// operation is also exported as a free function taking the runner first.
import { capturePane, clearHistory, listPanes, reapChildren } from './panes.js';
import {
  bindKey, listKey, setHook, setServerOption, setSessionOption, setWindowOption, showGlobalEnvironment,
  setWindowHook, showServerOption, unbindKey, unsetHook, unsetServerOption, unsetWindowHook, unsetWindowOption,
} from './options.js';
import type { TmuxRun } from './runner.js';
import { displayMessage, hasSession, killServer, newSession, sessionId } from './sessions.js';
import type { NewSessionSpec } from './sessions.js';
import { assertVersion, version } from './version.js';
import { killWindow, killWindows, newWindow, renameWindow, respawnPane, selectWindow } from './windows.js';
import type { NewWindowSpec, RespawnSpec } from './windows.js';

export function createTmux(r: TmuxRun) {
  return {
    version: () => version(r),
    assertVersion: () => assertVersion(r),
    newSession: (spec: NewSessionSpec) => newSession(r, spec),
    sessionId: (name: string) => sessionId(r, name),
    hasSession: (name: string) => hasSession(r, name),
    killServer: () => killServer(r),
    displayMessage: (target: string, format: string) => displayMessage(r, target, format),
    newWindow: (spec: NewWindowSpec) => newWindow(r, spec),
    respawnPane: (spec: RespawnSpec) => respawnPane(r, spec),
    killWindow: (target: string) => killWindow(r, target),
    killWindows: (targets: readonly string[]) => killWindows(r, targets),
    selectWindow: (target: string) => selectWindow(r, target),
    renameWindow: (target: string, name: string) => renameWindow(r, target, name),
    listPanes: (session: string) => listPanes(r, session),
    reapChildren: () => reapChildren(r),
    capturePane: (paneId: string, opts: { history: boolean }) => capturePane(r, paneId, opts),
    clearHistory: (paneId: string) => clearHistory(r, paneId),
    setWindowOption: (target: string, name: string, value: string) => setWindowOption(r, target, name, value),
    unsetWindowOption: (target: string, name: string) => unsetWindowOption(r, target, name),
    setSessionOption: (session: string, name: string, value: string) => setSessionOption(r, session, name, value),
    setServerOption: (name: string, value: string) => setServerOption(r, name, value),
    unsetServerOption: (name: string) => unsetServerOption(r, name),
    showServerOption: (name: string) => showServerOption(r, name),
    setHook: (session: string, hook: string, command: string) => setHook(r, session, hook, command),
    unsetHook: (session: string, hook: string) => unsetHook(r, session, hook),
    setWindowHook: (window: string, hook: string, command: string) => setWindowHook(r, window, hook, command),
    unsetWindowHook: (window: string, hook: string) => unsetWindowHook(r, window, hook),
    bindKey: (table: string, key: string, command: string) => bindKey(r, table, key, command),
    unbindKey: (table: string, key: string) => unbindKey(r, table, key),
    listKey: (table: string, key: string) => listKey(r, table, key),
    showGlobalEnvironment: () => showGlobalEnvironment(r),
  };
}

export type TmuxOps = ReturnType<typeof createTmux>;

export * from './panes.js';
export * from './options.js';
export * from './sessions.js';
export * from './version.js';
export * from './windows.js';
