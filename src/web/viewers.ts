// The open terminal sockets: how many, and which tasks someone is looking at now (the page
// says when it is hidden), for the alerts' "not while watched" rule.
export interface Viewer {
  task: number;
  /** The page says it is shown (not a background tab, not a sleeping phone). */
  visible: boolean;
  close(code: number, reason: string): void;
}

/** Every open terminal socket: the count, and which tasks someone is watching now. */
export class Viewers {
  readonly all = new Set<Viewer>();

  watching(task: number): boolean {
    for (const v of this.all) if (v.task === task && v.visible) return true;
    return false;
  }

  closeAll(): void {
    for (const v of this.all) v.close(1001, 'the server is stopping');
  }
}
