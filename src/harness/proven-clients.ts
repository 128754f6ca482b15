// Written by `npm run test:clients -- --record` (clients/proven.mjs) from what the real-client
// suite saw: the client versions fleetcom is proven against and what each channel did on them.
// Do not edit by hand; record again instead.
import type { HarnessName } from './names.js';

export interface ProvenClient {
  agent: HarnessName;
  version: string;
  /** The Node the client ran on. */
  node: string;
  channels: Readonly<Record<string, string>>;
}

export const PROVEN_ON = {"date":"2026-11-30","tmux":"tmux 3.3a","platform":"linux x64"} as const;

export const PROVEN_CLIENTS: readonly ProvenClient[] = [
  {
    "agent": "claude",
    "version": "2.1.197",
    "node": "v20.20.2",
    "channels": {
      "capture": "SessionStart hook: `startup`, `resume` on rerun; counts from the first message",
      "exit hint": "`claude --resume <id>` after a message; scraped",
      "no message": "no hint; the task resumes as plain `claude`",
      "parent markers": "dropped from a caller inside claude: the task writes its transcript and hint",
      "parked conversation": "`←` forks it into a background job; the worker's SessionStart (`resume`, the same id) is ignored",
      "pin": "`--session-id <uuid>` honoured; SessionStart `startup` names it before any message"
    }
  },
  {
    "agent": "claude",
    "version": "2.1.332",
    "node": "v22.23.5",
    "channels": {
      "capture": "SessionStart hook: `startup`, `resume` on rerun; counts from the first message",
      "exit hint": "`claude --settings <namespace>/claude-settings.json --resume <id>` after a message; scraped",
      "no message": "no hint; the task resumes as plain `claude`",
      "parent markers": "dropped from a caller inside claude: the task writes its transcript and hint",
      "parked conversation": "`←` forks it into a background job; the worker's SessionStart (`fork`, a new id) is ignored",
      "parked job": "registry `parkedJobId`: ls shows it; rerun attaches (`claude attach <short>`) while it runs, resumes its fork once ended",
      "pin": "`--session-id <uuid>` honoured; SessionStart `startup` names it before any message"
    }
  },
  {
    "agent": "codex",
    "version": "0.171.0",
    "node": "v20.20.2",
    "channels": {
      "capture": "notify: the thread-id of the last payload with a rollout (the title thread has none)",
      "exit hint": "`codex resume <id>` after a completed turn; scraped (`Session ID:` never)"
    }
  }
];
