// `fleetcom skill`: a short guide that teaches a lead agent to drive the fleet with the CLI.
// A lead left untold falls back to raw tmux (send-keys, capture-pane), which neither confirms
// that a message was taken nor reads the reply the agent recorded. Printed as a skill file
// (front matter, then markdown): `fleetcom skill > ~/.claude/skills/fleetcom/SKILL.md`, or
// pasted into an AGENTS.md.
import type { Deps } from '../../deps.js';

export const SKILL_TEXT = `---
name: fleetcom
description: Start, instruct, wait for and read other coding agents (claude, codex, gemini, opencode, qwen, pi, copilot, kilo, grok) running as fleetcom tasks. Use it whenever you delegate work to another agent or check on one.
---

# Driving a fleet of agents with fleetcom

Each worker is a fleetcom task: an agent in a tmux window of its own, with a task id. Do
everything through fleetcom, never through tmux (send-keys, capture-pane) or an agent's files:
fleetcom confirms that the agent took each message and reads each reply from the agent's own
record of that conversation.

## Start a worker
    fleetcom run --cwd DIR --name NAME --prompt "THE TASK" -- codex
Prints the task id; exit 0 only once the agent took its first message. Any agent: claude,
codex, gemini, opencode, qwen, pi, copilot, kilo, grok. Without --prompt it just starts.

## Give it a message
    fleetcom send ID "TEXT"            # one message, however many lines
    fleetcom send ID --file brief.md --json
It waits until the worker needs input, then types the message and waits for the agent's own
signal that it took it. Exit 0 and verdict \`submitted\` (with the turn it started) only then;
\`busy\` = still working when --timeout passed (send later), \`blocked\` = it asks a
permission or a question (a person must answer; never type into it), \`typed_not_submitted\`,
\`exited\`.

## Wait
    fleetcom wait ID                   # until its turn ends (exit 0), --timeout S (exit 1)
    fleetcom wait --all 1 2 3 --timeout 900
    fleetcom wait --any --until needs-you 1 2 3   # prints the id of one that needs you
--json says what each task is doing. A wait never misses a turn that ended before it began
when you give --turn N (the turn send printed).

## Read the reply
    fleetcom output ID                 # the last turn's reply, exactly as the agent wrote it
    fleetcom output ID --turn 2 --json # {task, conversationId, turn, text, source}

## See the fleet
    fleetcom ls --json                 # state, attention (working, waiting, permission), turn
    fleetcom events --json             # one line per transition, as it happens

## Rules
- One worker per piece of work; give it everything it needs in its first message.
- Send, then wait, then read: \`send\` prints the turn; \`wait ID --turn N\`; \`output ID --turn N\`.
- A worker that needs a permission or asks a question: tell the user (\`fleetcom next\` takes
  them there); do not answer for them.
- Stop only the tasks you started: \`fleetcom kill ID\`, \`fleetcom rm ID\`.
- Another machine's fleet: add \`--host NAME\` to any of these.
- Through MCP (\`fleetcom mcp\`): tools ls, run, send, wait, output, history do the same. A wait
  answers within 25 s; while it answers \`timedOut: true\`, call it again.
`;

export async function runSkill(deps: Deps): Promise<number> {
  deps.stdout.write(SKILL_TEXT);
  return 0;
}
