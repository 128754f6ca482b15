// What the terminal socket needs from whoever reaches a tmux pane: its screen and then its
// output, and a way to put bytes into it. The supervisor's control-mode connection answers
// this with its `watch` and `input` ops; web/pane-poll.ts answers it by polling tmux until
// they exist. Neither ever resizes a window: a viewer sees the pane at its real size.

export interface PaneSize {
  cols: number;
  rows: number;
}

/** Where a watched pane's bytes go; one per viewer. */
export interface PaneViewer {
  /** The pane's size, at the start and whenever it changes (the desktop resized it). */
  size(size: PaneSize): void;
  /**
   * Terminal bytes to draw: the first screen, then output. false: the viewer's buffer is
   * full. A stream waits for `drained` before more; a poll may skip a frame, since each of
   * its frames redraws the whole screen.
   */
  bytes(data: Buffer): boolean;
  drained(): Promise<void>;
  /** The pane is gone (its window closed) or the transport failed: the viewer is told why. */
  end(reason: string): void;
}

export interface PaneTransport {
  /** Streams `pane` to `viewer` until `signal` aborts or the pane ends. */
  watch(pane: string, viewer: PaneViewer, signal: AbortSignal): void;
  /** Bytes into the pane, as if typed (never through the shell). */
  input(pane: string, data: Buffer): Promise<void>;
  /** What the transport is, for the page and the log. */
  readonly kind: string;
  close(): void;
}
