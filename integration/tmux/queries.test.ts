// Several reads in one tmux call (runQueries) against a real private server: each query gets
// exactly its own output, whatever the values hold, and the whole costs one tmux client.
import { describe, expect, it } from 'vitest';
import { TmuxError } from '../../src/tmux/errors.js';
import { serverOptionQuery, windowOptionQuery } from '../../src/tmux/options.js';
import { panesQuery } from '../../src/tmux/panes.js';
import { runQueries, textQuery } from '../../src/tmux/queries.js';
import { countingRunner as counting } from '../helpers/counting-runner.js';
import { useSandbox } from '../helpers/sandbox.js';

describe('runQueries', () => {
  it('gives each query its own output, in one tmux call', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const w = await sb.ops.newWindow({ session, name: 'w', cwd: sb.dir, argv: ['sleep', '1000'] });
    // Values that look like the output of another query, or hold newlines, stay where they are.
    await sb.ops.setServerOption('@set-empty', '');
    await sb.ops.setServerOption('@multi', 'line one\n\u241e0123456789ab\nline three\n');
    await sb.ops.setWindowOption(w.windowId, '@fleetcom-spec', 'abc_1-2');
    const tmux = counting(sb.runner);

    const [unset, empty, multi, panes, specs, name] = await runQueries(tmux, [
      serverOptionQuery('@never-set'),
      serverOptionQuery('@set-empty'),
      serverOptionQuery('@multi'),
      panesQuery(null),
      windowOptionQuery('@fleetcom-spec', /^[A-Za-z0-9_-]+$/),
      textQuery(['display-message', '-p', '-t', w.paneId, '#{window_name}']),
    ]);

    expect(tmux.calls).toHaveLength(1);
    expect(unset).toBeNull();
    expect(empty).toBe('');
    expect(multi).toBe('line one\n\u241e0123456789ab\nline three\n');
    expect(panes.map((p) => p.paneId)).toContain(w.paneId);
    expect(specs.get(w.windowId)).toBe('abc_1-2');
    expect(name).toBe('w');
  });

  it('rejects with the tmux error when a command fails (tmux stops the sequence there)', async () => {
    const sb = await useSandbox();
    await sb.startServer();
    // `list-keys` of a key that is not bound fails: the reason the start reads bindings apart.
    const failing = runQueries(sb.runner, [serverOptionQuery('@x'), textQuery(['list-keys', '-T', 'prefix', 'F12'])]);
    await expect(failing).rejects.toBeInstanceOf(TmuxError);
  });
});
