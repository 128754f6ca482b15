import { describe, expect, it } from 'vitest';
import { TmuxError } from '../../src/tmux/errors.js';
import { existingPaneOnly, PANE_FIELDS, paneWithText } from '../../src/tmux/panes.js';
import type { TmuxRun } from '../../src/tmux/runner.js';

/** A runner that records each sequence and answers with `answer` (given the commands). */
function recording(answer: (commands: readonly (readonly string[])[]) => string): TmuxRun & { sent: string[][][] } {
  const sent: string[][][] = [];
  return {
    sent,
    run: () => Promise.reject(new Error('not used')),
    runSequence: async (commands) => {
      sent.push(commands.map((c) => [...c]));
      return answer(commands);
    },
  };
}

describe('paneWithText', () => {
  it('asks for the record only if the pane exists: tmux 3.2a crashes expanding a gone pane\'s #{window_activity}', async () => {
    const tmux = recording((commands) => {
      const format = commands[0]![4]!;
      const separator = /\}(\u241e[0-9a-f]+)#/.exec(format)![1]!;
      const values: Record<string, string> = { pane_id: '%3', window_id: '@2', pane_dead: '1', pane_dead_status: '0', pane_pid: '42', window_activity: '1700000000' };
      return `${PANE_FIELDS.map((f) => `${values[f] ?? ''}${separator}`).join('')}\nlast line  \n\n`;
    });
    const read = await paneWithText(tmux, '%3');
    const [display] = tmux.sent[0]!;
    expect(display!.slice(0, 4)).toEqual(['display-message', '-p', '-t', '%3']);
    expect(display![4]).toMatch(/^#\{\?pane_id,#\{pane_id\}.*#\{window_activity\}.*,\}$/);
    expect(read?.record).toMatchObject({ paneId: '%3', windowId: '@2', paneDead: true, paneDeadStatus: 0, panePid: 42, windowActivity: 1700000000 });
    expect(read?.text).toBe('last line');
  });

  it('is null for a pane that is gone (capture-pane names it)', async () => {
    const tmux = recording(() => {
      throw new TmuxError('display-message; capture-pane', "can't find pane: %3", 1, '');
    });
    expect(await paneWithText(tmux, '%3')).toBeNull();
  });

  it('guards with a conditional whose branch holds the whole format', () => {
    expect(existingPaneOnly('#{a}\u241e1#{b}\u241e1')).toBe('#{?pane_id,#{a}\u241e1#{b}\u241e1,}');
  });
});
