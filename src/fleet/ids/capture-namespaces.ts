// The capture namespaces a supervisor's tasks write into: its own, installed on first use, and
// those of dead supervisors whose tasks it adopted (kept until no adopted task writes there).
import { deleteCaptureFile } from '../../capture/namespace.js';
import type { Task } from '../supervisor/task.js';

export class CaptureNamespaces {
  private own: string | null = null;
  private readonly adopted = new Set<string>();

  constructor(
    /** Installs this supervisor's namespace and returns its directory; throws on failure. */
    private readonly install: () => string,
    private readonly log: (line: string) => void,
  ) {}

  /** This supervisor's namespace, installed now if need be; null (retried next time) when that fails. */
  ensure(): string | null {
    if (this.own) return this.own;
    try {
      this.own = this.install();
      return this.own;
    } catch (error) {
      this.log(`capture namespace not installed (${(error as Error).message}); this task runs uninstrumented`);
      return null;
    }
  }

  get current(): string | null {
    return this.own;
  }

  adopt(dir: string): void {
    this.adopted.add(dir);
  }

  all(): string[] {
    return [...(this.own ? [this.own] : []), ...this.adopted];
  }

  /** Adopted namespaces none of `tasks` writes into any more, forgotten here; the caller removes them. */
  releaseIdle(tasks: Iterable<Task>): string[] {
    const files = [...tasks].map((t) => t.captureFile).filter((f): f is string => f !== null);
    const idle = [...this.adopted].filter((dir) => !files.some((f) => f.startsWith(`${dir}/`)));
    for (const dir of idle) this.adopted.delete(dir);
    return idle;
  }

  /**
   * A finished run's capture file. Its path may come from an adopted state.json: only a file
   * named like a capture file in one of this fleet's namespaces is deleted, anything else is
   * left and said.
   */
  dropCapture(file: string | null): void {
    if (file === null) return;
    try {
      deleteCaptureFile(file, this.all());
    } catch (error) {
      this.log((error as Error).message);
    }
  }
}
