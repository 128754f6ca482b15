// Driving and reading a pane of a sandbox's tmux server, the way a user would: typing with
// send-keys and reading the retained text. All waits poll (waitFor), none sleep.
import type { PaneRecord } from '../../src/tmux/panes.js';
import type { Sandbox } from './sandbox.js';
import { waitFor } from './wait-for.js';

/** Types `text` literally (`send-keys -l`), then presses Enter. */
export async function typeLine(sb: Sandbox, pane: string, text: string): Promise<void> {
  await sb.tmux('send-keys', '-t', pane, '-l', text);
  await sb.tmux('send-keys', '-t', pane, 'Enter');
}

/** Presses keys by tmux name (`C-c`, `Enter`, `Up`). */
export async function pressKeys(sb: Sandbox, pane: string, ...keys: string[]): Promise<void> {
  await sb.tmux('send-keys', '-t', pane, ...keys);
}

/** The pane's whole retained text (history + screen, trailing spaces trimmed). */
export function paneText(sb: Sandbox, pane: string): Promise<string> {
  return sb.ops.capturePane(pane, { history: true });
}

/** Waits until the pane's text contains `needle` (string or regex); returns the text. */
export function waitForText(sb: Sandbox, pane: string, needle: string | RegExp, timeout?: number): Promise<string> {
  return waitFor(
    async () => {
      const text = await paneText(sb, pane);
      return (typeof needle === 'string' ? text.includes(needle) : needle.test(text)) ? text : false;
    },
    { what: `pane ${pane} to show ${String(needle)}`, timeout },
  ).catch(async (e: unknown) => {
    throw new Error(`${(e as Error).message}\n--- pane ${pane} ---\n${await paneText(sb, pane).catch(() => '(gone)')}`);
  });
}

/** The pane's list-panes record, or undefined when the pane is gone. */
export async function paneRecord(sb: Sandbox, session: string, pane: string): Promise<PaneRecord | undefined> {
  return (await sb.ops.listPanes(session)).find((p) => p.paneId === pane);
}

/** Waits until the pane is dead (needs remain-on-exit) and returns its record. */
export function waitForDeath(sb: Sandbox, session: string, pane: string, timeout?: number): Promise<PaneRecord> {
  return waitFor(
    async () => {
      const r = await paneRecord(sb, session, pane);
      return r?.paneDead ? r : false;
    },
    { what: `pane ${pane} to be dead`, timeout },
  );
}

export interface SpawnInPaneOptions {
  cwd?: string;
  /** Extra `-e` variables (the pane otherwise gets the server's environment: sandbox.env). */
  env?: Record<string, string>;
  /** Keep the pane after its process ends (default true), so its text and status can be read. */
  keep?: boolean;
}

/** Runs `command` with `/bin/sh -c` in a new window of `session`; returns the window's ids. */
export function spawnInPane(sb: Sandbox, session: string, command: string, opts: SpawnInPaneOptions = {}) {
  return sb.ops.newWindow({
    session,
    name: command.slice(0, 30),
    cwd: opts.cwd ?? sb.dir,
    env: opts.env,
    argv: ['/bin/sh', '-c', command],
    path: sb.env.PATH,
    windowOptions: opts.keep === false ? {} : { 'remain-on-exit': 'on' },
  });
}
