// The fleet's verbs as the CLI runs them: each is `fleetcom <verb> … --json` run by this very
// fleetcom (the same node, the same dist/cli.cjs, the server's environment), its JSON document
// handed on as it is. So the page's send is the CLI's send — its confirmation, its verdicts,
// its limits — and a verb this fleetcom does not have yet answers 501 with the CLI's words.
import { spawn } from 'node:child_process';
import type { Env } from '../paths.js';
import type { VerbAnswer } from './fleet-port.js';

export interface CliVerbOptions {
  node: string;
  script: string;
  env: Env;
  cwd: string;
  /** Most a verb may print (stdout and stderr each) before it is stopped. */
  maxBytes?: number;
  timeoutMs?: number;
}

export interface VerbRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `fleetcom ...args` with `input` on stdin; `onLine` gets each stdout line as it comes (a streamed verb). */
export function runVerb(opts: CliVerbOptions, args: readonly string[], input = '', onLine?: (line: string) => void, signal?: AbortSignal): Promise<VerbRun> {
  const max = opts.maxBytes ?? 8 * 1024 * 1024;
  return new Promise((resolve) => {
    const child = spawn(opts.node, [opts.script, ...args], { env: { ...opts.env } as NodeJS.ProcessEnv, cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let pending = '';
    const stop = () => child.kill('SIGTERM');
    const timer = opts.timeoutMs === undefined ? null : setTimeout(stop, opts.timeoutMs);
    signal?.addEventListener('abort', stop, { once: true });
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (onLine === undefined) {
        stdout += chunk;
        if (stdout.length > max) stop();
        return;
      }
      pending += chunk;
      let nl;
      while ((nl = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        if (line.trim() !== '') onLine(line);
      }
      if (pending.length > max) stop();
    });
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < max) stderr += chunk;
    });
    child.on('error', (error) => resolve({ code: null, stdout, stderr: `${stderr}${error.message}` }));
    child.on('close', (code) => {
      if (timer !== null) clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
      resolve({ code, stdout: stdout + pending, stderr });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

/** The HTTP answer of a verb's run: its JSON on success, its message otherwise. */
export function answerOf(run: VerbRun, verb: string): VerbAnswer {
  const message = lastMessage(run.stderr);
  if (run.code === 2 && /unknown command/.test(run.stderr)) {
    return { status: 501, body: { error: `this fleetcom has no '${verb}' command yet (${message})` } };
  }
  let doc: unknown = null;
  const text = run.stdout.trim();
  if (text !== '') {
    try {
      doc = JSON.parse(text);
    } catch {
      doc = { text };
    }
  }
  if (run.code === 0) return { status: 200, body: doc };
  if (run.code === 3) return { status: 503, body: { error: message || 'no fleet is running' } };
  // A verb that answered with its document (send's verdict other than submitted) is still an answer.
  if (doc !== null && typeof doc === 'object' && !Array.isArray(doc) && !('text' in doc)) return { status: 200, body: { ...doc, exitCode: run.code } };
  if (run.code === 2) return { status: 400, body: { error: message || `${verb}: bad request` } };
  return { status: run.code === null ? 504 : 502, body: { error: message || `${verb} failed (exit ${run.code ?? 'signal'})` } };
}

function lastMessage(stderr: string): string {
  return stderr.split('\n').map((l) => l.replace(/^fleetcom: /, '').trim()).filter((l) => l !== '' && !l.startsWith('try ')).slice(-3).join('; ');
}
