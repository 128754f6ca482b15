// The tools' handlers against a command line of the test's own (no fleet): which command lines
// a call runs, in what order, and what it answers.
import { describe, expect, it } from 'vitest';
import type { Deps } from '../../src/deps.js';
import type { CommandLine } from '../../src/mcp/captured.js';
import { toolHandlers } from '../../src/mcp/server.js';

function world(answer: (argv: readonly string[], deps: Deps) => Promise<number>) {
  const calls: string[][] = [];
  let log = '';
  const run: CommandLine = (argv, deps) => {
    calls.push([...argv]);
    return answer(argv, deps);
  };
  const deps: Deps = { env: {}, cwd: '/work', now: Date.now, stdout: { write: () => true }, stderr: { write: (t: string) => (log += t) } };
  return { calls, log: () => log, handlers: (deadlineMs?: number) => toolHandlers(deps, { run, version: '0', deadlineMs }) };
}

describe('the tool handlers', () => {
  it("run starts the task, then sends its prompt to the id run printed, and answers both", async () => {
    const w = world(async (argv, deps) => {
      if (argv[0] === 'run') deps.stdout.write('7\n');
      else deps.stdout.write('{"task":7,"verdict":"submitted","turn":1}\n');
      return 0;
    });
    const answer = await w.handlers().run({ command: 'codex', prompt: 'fix it', cwd: '/p' });
    // 30 s less the run's own time, less 5 s to answer: 25 s, or 24 once the run took a moment.
    expect(w.calls).toEqual([['run', '--cwd', '/p', '--', 'codex'], ['send', '--json', '--timeout', expect.stringMatching(/^2[45]\.0$/), '--', '7', 'fix it']]);
    expect(answer.content[0]?.text).toBe('{"task":7,"send":{"task":7,"verdict":"submitted","turn":1}}');
    expect(w.log()).toMatch(/^fleetcom mcp: fleetcom run --cwd \/p -- codex → exit 0 in \d+ ms\nfleetcom mcp: fleetcom send/);
  });

  it("gives run's prompt only what is left of the call, and says so when nothing is", async () => {
    const w = world(async (argv, deps) => {
      if (argv[0] === 'run') {
        await new Promise((resolve) => setTimeout(resolve, 300));
        deps.stdout.write('7\n');
      }
      return 0;
    });
    const answer = await w.handlers(5_000).run({ command: 'codex', prompt: 'fix it' });
    expect(w.calls).toHaveLength(1);
    expect(answer.content[1]?.text).toMatch(/task 7 started; no time was left in this call for its first message: send it/);
  });

  it('answers a run that printed no id as a failure, sending nothing', async () => {
    const w = world(async (_argv, deps) => {
      deps.stderr.write('fleetcom: no such directory\n');
      return 1;
    });
    const answer = await w.handlers().run({ command: 'codex', prompt: 'x' });
    expect(w.calls).toHaveLength(1);
    expect(answer).toMatchObject({ isError: true, content: [{ text: 'fleetcom run -- codex failed (exit 1):\nfleetcom: no such directory' }] });
  });

  it('refuses a lone - before running anything', async () => {
    const w = world(async () => 0);
    expect((await w.handlers().send({ task: 1, text: '-' })).isError).toBe(true);
    expect((await w.handlers().run({ command: 'claude', prompt: '-' })).isError).toBe(true);
    expect(w.calls).toEqual([]);
  });

  it('answers a command still running at the deadline, without waiting for it', async () => {
    const w = world(() => new Promise<number>(() => {}));
    const answer = await w.handlers(200).wait({ tasks: [1] });
    expect(answer).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/gave no answer within 0.2 s/) }] });
  });
});
