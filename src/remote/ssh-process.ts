// The one place fleetcom starts ssh: the user's ssh command (config `sshCommand`) with argv
// words only, never a shell, and a deadline after which the client is killed (a mux client
// killed closes only its own session; the master and the other calls go on).
import { spawn } from 'node:child_process';

export interface SshRun {
  /** ssh's exit code; null when it was killed at the deadline or by a signal. */
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

export interface SshRunOptions {
  /** Kill the client after this many ms (null: no deadline, for interactive commands). */
  deadlineMs: number | null;
  /** Text written to ssh's stdin (the remote command's); without it stdin is /dev/null. */
  input?: string;
  /** Called with each piece of stderr as it comes (a command passing ssh's messages on). */
  onStderr?: (text: string) => void;
  /** Called with each piece of stdout as it comes; stdout is then not kept. */
  onStdout?: (text: string) => void;
}

export function runSsh(argv: readonly string[], opts: SshRunOptions): Promise<SshRun> {
  const [file, ...args] = argv;
  if (file === undefined) throw new Error('runSsh needs a program');
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const child = spawn(file, args, { stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let done = false;
    const finish = (code: number | null) => {
      if (done) return;
      done = true;
      if (timer !== null) clearTimeout(timer);
      resolve({ code: timedOut ? null : code, stdout, stderr, timedOut });
    };
    // A mux client hands its stdio to the master, which keeps our pipes open as long as the
    // session lives (on a host that stopped answering: until ServerAlive gives up, ~30 s). At
    // the deadline the client is killed and our ends closed, without waiting for theirs.
    const timer = opts.deadlineMs === null ? null : setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
      for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.destroy();
      finish(null);
    }, opts.deadlineMs);
    const [out, err] = [child.stdout!, child.stderr!];
    out.setEncoding('utf8');
    err.setEncoding('utf8');
    out.on('data', (chunk: string) => (opts.onStdout ? opts.onStdout(chunk) : (stdout += chunk)));
    err.on('data', (chunk: string) => {
      stderr += chunk;
      opts.onStderr?.(chunk);
    });
    if (opts.input !== undefined && child.stdin !== null) {
      // A remote end that exits before reading all of it closes the pipe: its exit code says why.
      child.stdin.on('error', () => {});
      child.stdin.end(opts.input);
    }
    child.on('error', (error) => {
      stderr += `${(error as NodeJS.ErrnoException).code === 'ENOENT' ? `${file}: not found` : error.message}\n`;
      finish(255);
    });
    child.on('close', (code) => finish(code));
  });
}

/** ssh's own reason from its stderr: its last non-empty line (ssh prints the cause last). */
export function sshReason(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  return lines.at(-1) ?? 'no message';
}

