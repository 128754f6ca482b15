// `npm run demo` is the first thing a newcomer runs (README's Quick start): run it as a script
// would (no terminal, so it detaches), follow the instructions it prints, and stop it the way
// it says. Everything it makes lives in the temp dir it names, which TMPDIR puts in a sandbox.
import { execa } from 'execa';
import { describe, expect, it, onTestFinished } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';

const demoScript = new URL('../../examples/demo.mjs', import.meta.url).pathname;

describe('npm run demo', () => {
  it('starts the demo fleet on a private tmux server inside its own temp dir and says how to look at it and stop it', async () => {
    const sb = await useSandbox();
    // Only TMPDIR and PATH come from the sandbox: the demo makes every home itself.
    const env = { ...sb.env, TMPDIR: sb.dir };
    const demo = await execa(process.execPath, [demoScript], { env, extendEnv: false, stdin: 'ignore', reject: false });
    expect(demo.exitCode, demo.stderr).toBe(0);
    const socket = /tmux -S '([^']+)' attach -t demo/.exec(demo.stderr)?.[1];
    // The demo's own tmux server is not the sandbox's: stopped here whatever fails below.
    if (socket !== undefined) onTestFinished(() => execa('tmux', ['-S', socket, 'kill-server'], { reject: false }).then(() => undefined));
    const list = /list tasks: +(.+)/.exec(demo.stderr)?.[1];
    const stop = /stop it: +(.+)/.exec(demo.stderr)?.[1];
    expect(socket?.startsWith(`${sb.dir}/fleetcom-demo-`), demo.stderr).toBe(true);
    expect(list && stop).toBeTruthy();
    const tasks = await waitFor(async () => {
      const ls = await execa('sh', ['-c', `${list!} --json`], { env, extendEnv: false, reject: false });
      const records = ls.exitCode === 0 ? (JSON.parse(ls.stdout) as Array<{ name: string | null; harness: string | null }>) : [];
      return records.length === 5 ? records : undefined;
    }, { what: 'the five tasks of examples/demo.json in ls', timeout: 30_000 });
    expect(tasks.map((t) => t.harness)).toEqual(['claude', 'codex', 'grok', null, null]);
    const stopped = await execa('sh', ['-c', stop!], { env, extendEnv: false, reject: false });
    expect(stopped.exitCode, stopped.stderr).toBe(0);
  });
});
