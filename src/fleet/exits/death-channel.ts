// Hearing task deaths: the pane-died hook of every task window signals a tmux `wait-for`
// channel (tmux-commands.ts); one waiting tmux client per supervisor wakes on it, the supervisor
// reconciles (one list-panes finds which panes died), and the client waits again. No process
// per event; a signal sent while nobody waits is kept by tmux, so none is lost in between.
import type { TmuxRun } from '../../tmux/runner.js';

const RETRY_MS = 1_000;

export function hearDeaths(
  tmux: TmuxRun,
  channel: string,
  onDeath: () => Promise<unknown>,
  log: (line: string) => void,
): { stop: () => void } {
  const abort = new AbortController();
  const { signal } = abort;
  void (async () => {
    while (!signal.aborted) {
      try {
        await tmux.run(['wait-for', channel], { signal });
      } catch (error) {
        if (signal.aborted) return;
        log(`waiting on ${channel}: ${(error as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS).unref());
        continue;
      }
      if (signal.aborted) return;
      await onDeath().catch(() => undefined);
    }
  })();
  return { stop: () => abort.abort() };
}
