// Where an alert goes: each target of config `notify.targets` (and `notifyCommand`) on its own,
// under its own deadline, so a hung webhook or a missing program delays or stops no other target
// and never the supervisor. A target that fails is logged once, then again only after it worked.
import { spawn } from 'node:child_process';
import { accessSync, closeSync, constants, fstatSync, openSync, writeSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { NotifyTarget } from '../../config/notify-schema.js';
import { webhookBody, type Alert } from './alert-message.js';

export interface TargetDeps {
  /** The supervisor's environment: commands inherit it, PATH finds the desktop's program. */
  env: Record<string, string>;
  platform: NodeJS.Platform;
  /** The terminals of the clients attached to this tmux server (`#{client_tty}`, unchecked). */
  clientTtys: () => Promise<string[]>;
  log: (line: string) => void;
}

/** A target of config `notify`, or the older `notifyCommand` (run by /bin/sh). */
export type Target = NotifyTarget | { type: 'shell'; command: string };

const DEFAULT_TIMEOUT_S = { command: 30, shell: 30, webhook: 10, ntfy: 10, desktop: 10, terminal: 2 } as const;
const TTY = /^\/dev\/(?:pts\/[0-9]+|tty[A-Za-z0-9.]+)$/;

/** The targets' names in log lines: the type and where it points, never a token. */
export function targetName(target: Target): string {
  switch (target.type) {
    case 'command':
      return `command ${target.argv[0]}`;
    case 'shell':
      return 'notifyCommand';
    case 'webhook':
    case 'ntfy':
      return `${target.type} ${safeUrl(target.url)}`;
    default:
      return target.type;
  }
}

export class AlertTargets {
  private readonly failing = new Set<number>();

  constructor(private readonly targets: readonly Target[], private readonly deps: TargetDeps) {}

  get size(): number {
    return this.targets.length;
  }

  /** Sends to every target at once; resolves when each has finished or met its deadline. */
  async send(alert: Alert): Promise<void> {
    await Promise.all(this.targets.map(async (target, index) => {
      const timeoutMs = ('timeoutSeconds' in target && target.timeoutSeconds !== undefined ? target.timeoutSeconds : DEFAULT_TIMEOUT_S[target.type]) * 1000;
      try {
        await sendTo(target, alert, timeoutMs, this.deps);
        if (this.failing.delete(index)) this.deps.log(`alert target ${targetName(target)} works again`);
      } catch (error) {
        if (this.failing.has(index)) return;
        this.failing.add(index);
        this.deps.log(`alert target ${targetName(target)} failed: ${(error as Error).message} (said once until it works again)`);
      }
    }));
  }
}

async function sendTo(target: Target, alert: Alert, timeoutMs: number, deps: TargetDeps): Promise<void> {
  switch (target.type) {
    case 'command':
      return runProgram(target.argv, alertEnv(deps.env, alert), timeoutMs);
    case 'shell':
      return runProgram(['/bin/sh', '-c', target.command], alertEnv(deps.env, alert), timeoutMs);
    case 'webhook':
      return post(target.url, { 'content-type': 'application/json', ...target.headers }, JSON.stringify(webhookBody(alert)), timeoutMs);
    case 'ntfy':
      return post(...ntfyRequest(target.url, target.token, alert), timeoutMs);
    case 'desktop':
      return runProgram(desktopArgv(deps, alert), deps.env, timeoutMs);
    case 'terminal':
      return writeTerminals(await deps.clientTtys(), oscText(target.osc ?? 9, alert));
  }
}

/** The command's environment: the supervisor's, plus the first (most urgent) task by name. */
export function alertEnv(base: Record<string, string>, alert: Alert): Record<string, string> {
  const [item] = alert.items;
  return {
    ...base,
    FLEETCOM_TASK_ID: String(item?.taskId ?? ''),
    FLEETCOM_TASK_LABEL: item?.label ?? '',
    FLEETCOM_ATTENTION: item?.attention ?? '',
    FLEETCOM_MESSAGE: alert.text,
    FLEETCOM_WINDOW_ID: item?.windowId ?? '',
    FLEETCOM_PANE_ID: item?.paneId ?? '',
    FLEETCOM_HOST: item?.host ?? '',
    FLEETCOM_DIRECTORY: item?.directory ?? '',
    FLEETCOM_CONVERSATION_ID: item?.conversation ?? '',
    FLEETCOM_TASK_COUNT: String(alert.items.length),
  };
}

/**
 * ntfy's JSON publishing (POST to the server's root with the topic inside), so a title in any
 * language needs no header encoding; a question or a permission is urgent, a finished turn not.
 */
export function ntfyRequest(url: string, token: string | undefined, alert: Alert): [string, Record<string, string>, string] {
  const parsed = new URL(url);
  const parts = parsed.pathname.split('/').filter((p) => p !== '');
  const topic = decodeURIComponent(parts.pop() ?? '');
  parsed.pathname = `/${parts.join('/')}`;
  parsed.search = '';
  const urgent = alert.items.some((item) => item.attention !== 'waiting');
  const body = { topic, title: alert.title, message: alert.text, priority: urgent ? 4 : 3, tags: [urgent ? 'warning' : 'hourglass'] };
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  return [parsed.toString(), headers, JSON.stringify(body)];
}

async function post(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<void> {
  const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' })
    .catch((error: Error) => {
      throw new Error(error.name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : causeOf(error));
    });
  await response.body?.cancel().catch(() => undefined);
  if (!response.ok) throw new Error(`answered ${response.status} ${response.statusText}`.trim());
}

function causeOf(error: Error): string {
  const cause = (error as Error & { cause?: Error }).cause;
  return cause?.message ?? error.message;
}

/** notify-send on Linux and the BSDs, osascript on macOS; the text only ever as an argument. */
function desktopArgv(deps: TargetDeps, alert: Alert): string[] {
  if (deps.platform === 'darwin') {
    const osascript = onPath('osascript', deps.env);
    if (osascript === null) throw new Error('osascript is not on PATH');
    return [osascript, '-e', 'on run argv', '-e', 'display notification (item 1 of argv) with title (item 2 of argv)', '-e', 'end run', alert.text, alert.title];
  }
  const notifySend = onPath('notify-send', deps.env);
  if (notifySend === null) throw new Error('notify-send is not on PATH (install libnotify-bin)');
  return [notifySend, '--app-name=fleetcom', alert.title, alert.text];
}

function onPath(program: string, env: Record<string, string>): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    try {
      accessSync(join(dir, program), constants.X_OK);
      return join(dir, program);
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * The program's whole process group is killed at the deadline: a notifier that hangs (a
 * network call, a dialog) cannot pile up one process per alert.
 */
function runProgram(argv: readonly string[], env: Record<string, string>, timeoutMs: number): Promise<void> {
  const [program, ...args] = argv;
  return new Promise((resolve, reject) => {
    const child = spawn(program ?? '', args, { env, stdio: 'ignore', detached: true });
    const timer = setTimeout(() => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      reject(new Error(`still running after ${timeoutMs / 1000} s: stopped`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`ended with ${signal ?? `status ${code}`}`));
    });
    child.unref();
  });
}

/**
 * OSC 9 (iTerm2, WezTerm, Windows Terminal, kitty, Ghostty) or OSC 777 (foot, urxvt, WezTerm,
 * Ghostty): the terminal shows a desktop notification. Control characters out, `;` out of 777's
 * title (its field separator).
 */
export function oscText(osc: 9 | 777, alert: Alert): string {
  // eslint-disable-next-line no-control-regex
  const clean = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ');
  if (osc === 9) return `\x1b]9;${clean(`${alert.title}: ${alert.text}`)}\x07`;
  return `\x1b]777;notify;${clean(alert.title).replace(/;/g, ',')};${clean(alert.text)}\x07`;
}

/**
 * Written straight to each attached client's terminal, in one write each: tmux's passthrough
 * would reach only the clients that show the pane writing it, and a client on another machine
 * (over ssh) is a pty here like any other. Non-blocking: a stuck terminal stalls nothing.
 */
function writeTerminals(ttys: string[], text: string): Promise<void> {
  const problems: string[] = [];
  let written = 0;
  for (const tty of ttys) {
    if (!TTY.test(tty)) continue;
    let fd: number | null = null;
    try {
      fd = openSync(tty, constants.O_WRONLY | constants.O_NOCTTY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
      if (!fstatSync(fd).isCharacterDevice()) throw new Error('not a character device');
      writeSync(fd, text);
      written++;
    } catch (error) {
      problems.push(`${tty}: ${(error as Error).message}`);
    } finally {
      if (fd !== null) closeSync(fd);
    }
  }
  // No client attached is no failure: there is no terminal to show it.
  if (problems.length > 0 && written === 0) return Promise.reject(new Error(problems.join('; ')));
  return Promise.resolve();
}

function safeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    return parsed.toString();
  } catch {
    return '(bad url)';
  }
}
