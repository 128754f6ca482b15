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

export const PROVEN_ON = {"date":"2026-12-02","tmux":"tmux 3.3a","platform":"linux x64"} as const;

export const PROVEN_CLIENTS: readonly ProvenClient[] = [
  {
    "agent": "claude",
    "version": "2.1.197",
    "node": "v20.20.2",
    "channels": {
      "capture": "SessionStart hook: `startup`, `resume` on rerun; counts from the first message",
      "exit hint": "`claude --resume <id>` after a message; scraped",
      "lead over MCP": "a claude with `fleetcom mcp` (claude mcp add --scope user) ran a codex worker, sent it a message, waited and read its reply with the tools mcp__fleetcom__run, send, wait, output",
      "mcp settings": "`fleetcom mcp --config claude` as .mcp.json (pending approval) and its `claude mcp add --scope user` line: ✔ Connected",
      "no message": "no hint; the task resumes as plain `claude`",
      "output": "the turn's reply exactly, from its signal",
      "parent markers": "dropped from a caller inside claude: the task writes its transcript and hint",
      "parked conversation": "`←` forks it into a background job; the worker's SessionStart (`resume`, the same id) is ignored",
      "pin": "`--session-id <uuid>` honoured; SessionStart `startup` names it before any message",
      "send": "one line, then several lines as one message (tmux paste): submitted, the turn counted; wait met at its end"
    }
  },
  {
    "agent": "claude",
    "version": "2.1.332",
    "node": "v22.23.5",
    "channels": {
      "capture": "SessionStart hook: `startup`, `resume` on rerun; counts from the first message",
      "exit hint": "`claude --settings <namespace>/claude-settings.json --resume <id>` after a message; scraped",
      "lead over MCP": "a claude with `fleetcom mcp` (claude mcp add --scope user) ran a codex worker, sent it a message, waited and read its reply with the tools mcp__fleetcom__run, send, wait, output",
      "mcp settings": "`fleetcom mcp --config claude` as .mcp.json (pending approval) and its `claude mcp add --scope user` line: ✔ Connected",
      "no message": "no hint; the task resumes as plain `claude`",
      "output": "the turn's reply exactly, from its signal",
      "parent markers": "dropped from a caller inside claude: the task writes its transcript and hint",
      "parked conversation": "`←` forks it into a background job; the worker's SessionStart (`startup`, a new id) is ignored",
      "parked job": "registry `parkedJobId`: ls shows it; rerun attaches (`claude attach <short>`) while it runs, resumes its fork once ended",
      "pin": "`--session-id <uuid>` honoured; SessionStart `startup` names it before any message",
      "send": "one line, then several lines as one message (tmux paste): submitted, the turn counted; wait met at its end"
    }
  },
  {
    "agent": "codex",
    "version": "0.171.0",
    "node": "v20.20.2",
    "channels": {
      "capture": "notify: the thread-id of the last payload with a rollout (the title thread has none)",
      "exit hint": "`codex resume <id>` after a completed turn; scraped (`Session ID:` never)",
      "mcp settings": "`fleetcom mcp --config codex` appended to config.toml: `codex mcp get fleetcom` enabled, stdio",
      "output": "the turn's reply exactly, from its signal",
      "send": "one line, then several lines as one message (tmux paste): submitted, the turn counted; wait met at its end",
      "subagent thread": "a spawn_agent subagent's notify (before or after the user thread's, no `client`) is skipped: its rollout says `thread_source: \"subagent\"`"
    }
  },
  {
    "agent": "gemini",
    "version": "0.61.0",
    "node": "v20.20.2",
    "channels": {
      "exit hint": "`To resume this session: gemini --resume <id>` at Ctrl-C twice or `/quit` (also with no message, when no file exists: not counted); scraped",
      "mcp settings": "`fleetcom mcp --config gemini` merged into settings.json: `gemini mcp list` Connected",
      "output": "the turn's reply exactly, from its store",
      "pin": "`--session-id <uuid>` honoured; the session file appears at the first message",
      "resume": "save, tmux server killed, load: `gemini --resume <id>` continues the conversation (the earlier turn is in the next request)",
      "send": "one line, then several lines as one message (tmux paste): submitted, the turn counted; wait met at its end",
      "store": "session-<time>-<id8>.jsonl under .gemini/tmp/<project>/chats/, first record sessionId + projectHash; counts with a typed message"
    }
  },
  {
    "agent": "kilo",
    "version": "7.7.7",
    "node": "v20.20.2",
    "channels": {
      "capture": "fleetcom's opencode plugin (KILO_CONFIG_CONTENT, merged over the user's config): session.created/updated of a parent-less session",
      "exit hint": "`kilo -s <id>` in its logo, under the title, after a session exists; scraped",
      "output": "the turn's reply exactly, from its signal",
      "resume": "save, tmux server killed, load: `kilo -s <id>` continues the session (the earlier turn is in the next request)",
      "send": "one line, then several lines as one message (tmux paste): submitted, the turn counted; wait met at its end",
      "store": "the session table of kilo.db (WAL) read by fleetcom: id, no parent_id, directory = cwd"
    }
  },
  {
    "agent": "opencode",
    "version": "1.18.33",
    "node": "v20.20.2",
    "channels": {
      "capture": "fleetcom's plugin (OPENCODE_CONFIG_CONTENT, merged over the user's config): session.created/updated of a parent-less session",
      "exit hint": "`Continue  opencode -s <id>` after a session exists; scraped",
      "output": "the turn's reply exactly, from its signal",
      "resume": "save, tmux server killed, load: `opencode -s <id>` continues the session (the earlier turn is in the next request)",
      "send": "one line, then several lines as one message (tmux paste): submitted, the turn counted; wait met at its end",
      "store": "the session table of its SQLite database (WAL) read by fleetcom: id, no parent_id, directory = cwd"
    }
  },
  {
    "agent": "qwen",
    "version": "0.24.4",
    "node": "v22.23.5",
    "channels": {
      "attention": "fleetcom's hooks (a system-defaults overlay): UserPromptSubmit working, Stop and idle_prompt waiting, permission_prompt permission, ask_user_question's PermissionRequest a question; /clear's SessionStart the new conversation",
      "exit hint": "`To continue this session, run` ⏎ `qwen --resume <id>` at Ctrl-C twice, after a message only; scraped",
      "output": "the turn's reply exactly, from its signal",
      "pin": "`--session-id <uuid>` honoured; the transcript appears at the first message",
      "resume": "save, tmux server killed, load: `qwen --resume <id>` continues the conversation (the earlier turn is in the next request)",
      "send": "one line, then several lines as one message (tmux paste): submitted, the turn counted; wait met at its end",
      "store": "projects/<cwd slug>/chats/<id>.jsonl under QWEN_HOME, a `user` record of the session with text"
    }
  },
  {
    "agent": "pi",
    "version": "1.6.0",
    "node": "v22.23.5",
    "channels": {
      "capture": "fleetcom's extension (`-e <ns>/pi-extension.js`): session_start names the session; agent_start/agent_settled give working and waiting",
      "exit hint": "`To resume this session:` / `pi --session <id>` at Ctrl-D after a message; scraped",
      "output": "the turn's reply exactly, from its signal",
      "pin": "`--session-id <uuid>` honoured (a new one is created under that id); the session file appears at the first message",
      "resume": "save, tmux server killed, load: `pi --session <id>` continues the conversation (the earlier turn is in the next request)",
      "send": "one line, then several lines as one message (tmux paste): submitted, the turn counted; wait met at its end",
      "store": "<PI_CODING_AGENT_DIR>/sessions/--<cwd>--/<time>_<id>.jsonl, header `{\"type\":\"session\",\"id\"}`; counts with a user message"
    }
  },
  {
    "agent": "copilot",
    "version": "1.0.102",
    "node": "v20.20.2",
    "channels": {
      "attention": "plugin hooks: UserPromptSubmit → working, Stop → waiting, Notification `permission_prompt` (its session named `sessionId`) → permission",
      "capture": "fleetcom's plugin (`--plugin-dir <ns>`): SessionStart (`session_id`, at the first message) captured; UserPromptSubmit/Stop give working and waiting",
      "exit hint": "`Resume     copilot --resume=<id>` in the summary box at Ctrl-D after a message; scraped",
      "output": "the turn's reply exactly, from its store",
      "pin": "`--session-id <uuid>` honoured: `session-state/<id>/` at start, `events.jsonl` at the first message",
      "resume": "save, tmux server killed, load: `copilot --resume <id>` continues the conversation (the earlier turn is in the next request)",
      "send": "one line, then several lines as one message (tmux paste): submitted, the turn counted; wait met at its end",
      "store": "<COPILOT_HOME>/session-state/<id>/events.jsonl; counts with a `user.message` record",
      "subagent": "a `task` tool subagent fires no SessionStart and has no session directory; its hooks (its agent_id as session_id, with parent_agent_id) are skipped"
    }
  }
];
