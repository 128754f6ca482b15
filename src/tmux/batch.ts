// tmux refuses a client message over 16 KiB ("command too long", nothing run), so commands sent
// as one sequence are cut into invocations that fit: 500 panes' queries do not fit in one.
/** Argument bytes of one invocation's sequences: below tmux's 16 KiB with room for framing. */
export const BATCH_BYTES = 12_288;

export function commandBytes(commands: readonly (readonly string[])[]): number {
  return commands.reduce((sum, cmd) => sum + cmd.reduce((n, word) => n + Buffer.byteLength(word) + 1, 2), 0);
}

/**
 * Consecutive runs of `items`, each as long as fits one invocation (BATCH_BYTES) by `bytes` of an
 * item's commands; an item alone over the limit still makes a run of its own (tmux then names
 * the refusal).
 */
export function* batches<T>(items: readonly T[], bytes: (item: T) => number): Generator<T[]> {
  for (let at = 0; at < items.length;) {
    let total = 0;
    let end = at;
    while (end < items.length && (end === at || total + bytes(items[end]!) <= BATCH_BYTES)) total += bytes(items[end++]!);
    yield items.slice(at, end);
    at = end;
  }
}
