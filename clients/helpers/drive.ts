// Driving a real client's TUI in a fleet task's pane, and reading what fleetcom and the client
// left behind. Every wait polls with a generous deadline; none sleeps.
import { readFile } from 'node:fs/promises';
import type { Fleet } from '../../integration/helpers/fleet.js';
import { paneText, pressKeys } from '../../integration/helpers/pane.js';
import type { Sandbox } from '../../integration/helpers/sandbox.js';
import type { LsRecord } from '../../src/control/protocol.js';
import { waitFor, waitForText, waitTask } from './poll.js';
import { descendants, type ProcInfo } from './proc.js';

/** Real clients start in seconds, but a loaded 2-core machine can take much longer. */
export const START_MS = 60_000;
export const REPLY_MS = 60_000;

/**
 * The idle footers the clients have shown, by version: a wait for readiness must not depend on
 * one version's wording (claude 2.1.197 `? for shortcuts · ← for agents`, 2.1.332 `⏵⏵ auto
 * mode on (shift+tab to cycle) · ← for agents` or `⏸ manual mode on · …`; codex 0.171.0
 * `? for shortcuts`). A new version with a new footer fails here, naming what it showed.
 */
export const IDLE_FOOTERS = ['? for shortcuts', '← for agents', 'shift+tab to cycle', 'manual mode on'] as const;

/** Waits until the pane shows one of the known idle footers. */
export async function waitReady(sb: Sandbox, pane: string): Promise<void> {
  await waitFor(async () => {
    const text = await paneText(sb, pane);
    return IDLE_FOOTERS.some((footer) => text.includes(footer));
  }, { what: `pane ${pane} to show an idle footer (${IDLE_FOOTERS.join(' | ')})`, timeout: START_MS }).catch(async (e: Error) => {
    throw new Error(`${e.message}\n--- pane ${pane} ---\n${await paneText(sb, pane).catch(() => '(gone)')}`);
  });
}

/**
 * Types `text` and submits it. The text is typed first and Enter is pressed only once the
 * client shows it: codex reads a burst of keys followed at once by Enter as a paste (the
 * Enter becomes part of it and nothing is sent). gemini turns an Enter that comes within 30 ms
 * of the last typed key into a newline (its `bufferFastReturn`), which the echo does not rule
 * out: with `submitted` (what the pane shows once the text has gone), Enter is pressed again
 * each second until it holds (an Enter on gemini's empty prompt does nothing).
 */
export async function submit(sb: Sandbox, pane: string, text: string, submitted?: (paneText: string) => boolean): Promise<void> {
  const before = countOf(await paneText(sb, pane), text);
  await sb.tmux('send-keys', '-t', pane, '-l', text);
  await waitFor(async () => countOf(await paneText(sb, pane), text) > before, { what: `pane ${pane} to echo ${text}`, timeout: START_MS });
  await pressKeys(sb, pane, 'Enter');
  if (!submitted) return;
  let pressed = Date.now();
  await waitFor(async () => {
    if (submitted(await paneText(sb, pane))) return true;
    if (Date.now() - pressed >= 1_000) {
      await pressKeys(sb, pane, 'Enter');
      pressed = Date.now();
    }
    return false;
  }, { what: `pane ${pane} to take ${text}`, timeout: START_MS }).catch(async (e: Error) => {
    throw new Error(`${e.message}\n--- pane ${pane} ---\n${await paneText(sb, pane).catch(() => '(gone)')}`);
  });
}

/**
 * claude's composer is empty: its last `❯` line (the composer; the ones above are the history's
 * echoes) holds nothing. For a slash command, whose own output may not follow it: under load
 * an Enter that came while claude drew the command's completion menu was taken by the menu,
 * and the next text typed joined the command (`/clearafter clear`: an unknown command).
 */
export function claudeComposerEmpty(text: string): boolean {
  const composer = text.split('\n').filter((line) => line.trimStart().startsWith('❯')).at(-1);
  return composer !== undefined && composer.trimStart().slice(1).trim() === '';
}

/**
 * Presses `key`, waits for the client's `again` prompt (e.g. gemini's `Press Ctrl+C again to
 * exit.`, shown for 3 s), and presses it once more: the second press counts only while it shows.
 */
export async function pressTwice(sb: Sandbox, pane: string, key: string, again: string): Promise<void> {
  await pressKeys(sb, pane, key);
  await waitForText(sb, pane, again, START_MS);
  await pressKeys(sb, pane, key);
}

/**
 * pressTwice until the pane shows `done`: qwen takes the second Ctrl-C only within 1 s of the
 * first (`CTRL_EXIT_PROMPT_DURATION_MS`), which a loaded machine misses between seeing the
 * prompt and pressing again (measured: 1 run in 3 at load 20 stayed at its prompt). A Ctrl-C on
 * an idle prompt only shows the prompt again, so another try is harmless.
 */
export async function pressTwiceUntil(sb: Sandbox, pane: string, key: string, again: string, done: string, tries = 5): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await pressTwice(sb, pane, key, again);
    try {
      await waitForText(sb, pane, done, 10_000);
      return;
    } catch (e) {
      if (attempt >= tries) throw e;
    }
  }
}

function countOf(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

/** The task's client process (the one whose argv satisfies `match`) under its pane's process. */
export async function clientProcess(sb: Sandbox, fleet: Fleet, task: LsRecord, match: (argv: string[]) => boolean): Promise<ProcInfo> {
  return waitFor(
    async () => {
      const pane = (await sb.ops.listPanes(fleet.session)).find((p) => p.paneId === task.paneId);
      if (!pane?.panePid) return null;
      return (await descendants(pane.panePid)).find((p) => match(p.argv)) ?? null;
    },
    { what: `the client process of task ${task.id}`, timeout: START_MS },
  );
}

/** The JSON payloads in a capture file, one per line (claude's hook writes one, codex appends). */
export async function capturePayloads(file: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const payloads: Record<string, unknown>[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      payloads.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // a half-written line: the next poll sees it whole
    }
  }
  return payloads;
}

/** Waits until the capture file holds payloads satisfying `predicate`; returns them. */
export function waitForPayloads(
  file: string,
  predicate: (payloads: Record<string, unknown>[]) => boolean,
  what: string,
  timeout = REPLY_MS,
): Promise<Record<string, unknown>[]> {
  return waitFor(async () => {
    const payloads = await capturePayloads(file);
    return predicate(payloads) ? payloads : null;
  }, { what: `${file}: ${what}`, timeout });
}

/** Waits for the task to have exited (its text scraped); shows the pane on timeout. */
export async function waitExited(sb: Sandbox, fleet: Fleet, task: LsRecord): Promise<LsRecord> {
  return waitTask(fleet, task.id, (t) => t.state === 'exited', 'exited', START_MS).catch(async (e: Error) => {
    throw new Error(`${e.message}\n--- pane ${task.paneId} ---\n${await paneText(sb, task.paneId).catch(() => '(gone)')}`);
  });
}

export { paneText, pressKeys, waitForText };

/** `save --stdout`, parsed: the commands saved for `dir`. */
export async function savedCommands(fleet: Fleet, dir: string): Promise<string[]> {
  const r = await fleet.cli('save', '--stdout');
  if (r.exitCode !== 0) throw new Error(`save --stdout failed (${r.exitCode}): ${r.stderr}`);
  const recipe = JSON.parse(r.stdout) as { dirs?: Record<string, (string | { cmd: string })[]> };
  const entries = recipe.dirs?.[dir];
  if (!entries) throw new Error(`save --stdout has no entry for ${dir}:\n${r.stdout}`);
  return entries.map((e) => (typeof e === 'string' ? e : e.cmd));
}
