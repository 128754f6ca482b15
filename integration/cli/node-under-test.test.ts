// CI runs these suites on several Node lines (.ci/run): a run proves something about Node 24
// only if the CLI, the supervisor it starts and the fake agents all run on the Node that runs
// vitest, not on whatever `node` the machine has in /usr/bin.
import { execa } from 'execa';
import { readFile, readlink, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

describe('the Node under test', () => {
  it("runs the fake agents' `#!/usr/bin/env node` and the supervisor that up starts", async () => {
    const sb = await useSandbox();
    const onPath = await execa('node', ['--version'], { env: sb.env, extendEnv: false });
    expect(onPath.stdout).toBe(process.version);
    const up = await runCli(['up', '--detach', '--tmux-socket', sb.socket, '--tmux-session', 'node'], { env: sb.env, cwd: sb.dir });
    expect(up.exitCode).toBe(0);
    const lock = await readFile(join(sb.env.FLEETCOM_RUNTIME_DIR!, 'lock'), 'utf8');
    const supervisor = Number(lock.split('\n')[0]);
    expect(await readlink(`/proc/${supervisor}/exe`)).toBe(await realpath(process.execPath));
    expect((await runCli(['down'], { env: sb.env, cwd: sb.dir })).exitCode).toBe(0);
  });
});
