// What the web server asks of the fleet, as functions handed in by `fleetcom web`
// (commands/web/): the server itself never decides how a task is listed, sent to or resumed,
// it calls what the CLI calls, and gets the same JSON the CLI's --json prints.
import type { LsRecord } from '../control/replies.js';

/** A host's tasks as `ls --all-hosts` sees them: its records, none (no fleet), or why it did not answer. */
export interface HostTasks {
  host: string;
  tasks: LsRecord[] | null;
  failure: string | null;
}

/** A verb's answer: the HTTP status it maps to and the JSON document its --json printed (or an error). */
export interface VerbAnswer {
  status: number;
  body: unknown;
}

export interface FleetPort {
  /** `ls --json`. Throws NoFleetError when no fleet runs. */
  tasks(): Promise<LsRecord[]>;
  /** The configured hosts' tasks (empty when none are configured). */
  hosts(): Promise<HostTasks[]>;
  /** `send <task> - --json` with `text` on its stdin. */
  send(task: number, text: string): Promise<VerbAnswer>;
  /** `output <task> --json`. */
  output(task: number): Promise<VerbAnswer>;
  /** `history --cwd <dir> --json`. */
  history(cwd: string): Promise<VerbAnswer>;
  /** `resume <id>`: the task that now has it. */
  resume(id: string): Promise<VerbAnswer>;
  /** `events --json`: each event as it comes, until `signal` aborts; the answer when it ends. */
  events(onEvent: (event: unknown) => void, signal: AbortSignal): Promise<VerbAnswer>;
}
