import { describe, expect, it } from 'vitest';
import { isFleetcomBinding, rerunBinding } from '../../../src/fleet/rerun/rerun-key.js';
import { argvThroughShell } from '../../harness/shell.js';

// The rerun key's binding is three languages deep: tmux's command parser (the binding, then the
// if-shell branch it runs), a tmux format (run-shell expands `#`), and sh. Each layer is undone
// here by the rules tmux 3.3a applies (a `\` escapes the next character inside double quotes,
// a bare `$` would expand a variable, `##` is one `#`), and sh itself parses the last one: the
// CLI must get exactly the node and script paths it was given, whatever they hold.

/** One double-quoted tmux token at `at`; its value and where it ends. Rejects what tmux would expand. */
function tmuxToken(text: string, at: number): { value: string; end: number } {
  if (text[at] !== '"') throw new Error(`no quoted token at ${at}: ${text.slice(at)}`);
  let value = '';
  for (let i = at + 1; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') return { value, end: i + 1 };
    if (ch === '$') throw new Error(`a bare $ that tmux would expand: ${text.slice(i)}`);
    if (ch === '\\') {
      const next = text[++i];
      if (next !== '\\' && next !== '"' && next !== '$') throw new Error(`an escape tmux reads otherwise: \\${next}`);
      value += next;
    } else {
      value += ch;
    }
  }
  throw new Error(`an unterminated token: ${text.slice(at)}`);
}

/** The binding's parts: the branch run in task windows, and the previous binding run elsewhere. */
function parseBinding(binding: string): { rerun: string; previous: string | null } {
  const head = `if-shell -F '#{@fleetcom-task}' `;
  expect(binding.startsWith(head)).toBe(true);
  const rerun = tmuxToken(binding, head.length);
  if (rerun.end === binding.length) return { rerun: rerun.value, previous: null };
  expect(binding[rerun.end]).toBe(' ');
  const previous = tmuxToken(binding, rerun.end + 1);
  expect(previous.end).toBe(binding.length);
  return { rerun: rerun.value, previous: previous.value };
}

/** run-shell's format expansion for a pane: only `##` and the two formats the binding uses. */
function expandFormats(text: string, pane: { id: string; socket: string }): string {
  return text.replace(/#(.)(pane_id}|q:@fleetcom-socket})?/g, (_, next: string, format?: string) => {
    if (next === '#' && format === undefined) return '#';
    if (next === '{' && format === 'pane_id}') return pane.id;
    if (next === '{' && format === 'q:@fleetcom-socket}') return pane.socket;
    throw new Error(`a # run-shell would expand otherwise: #${next}${format ?? ''}`);
  });
}

/** What the CLI receives when the key is pressed in a task pane. */
function pressedIn(binding: string, pane: { id: string; socket: string }): { argv: string[]; previous: string | null } {
  const { rerun, previous } = parseBinding(binding);
  const head = 'run-shell -b ';
  expect(rerun.startsWith(head)).toBe(true);
  const command = tmuxToken(rerun, head.length);
  expect(command.end).toBe(rerun.length);
  return { argv: argvThroughShell(expandFormats(command.value, pane)), previous };
}

const PANE = { id: '%7', socket: '/run/user/0/fleetcom/default.sock' };

describe('the rerun key binding', () => {
  it.each([
    ['plain paths', '/usr/bin/node', '/opt/fleetcom/dist/cli.js'],
    ['spaces and quotes', "/opt/my node/it's/node", '/home/a "b"/cli.js'],
    ['what tmux and sh expand', '/x/$HOME/`id`/node', '/x/#{pane_id}/##/#(touch y)/cli.js'],
    ['separators and backslashes', '/x/a;b/c\\d/node', "/x/'; rm -rf ~; '/cli.js"],
  ])('hands the CLI its own node and script paths with %s', (_, node, script) => {
    const { argv } = pressedIn(rerunBinding({ node, script }, null), PANE);
    expect(argv).toEqual([node, script, 'rerun', '--pane', PANE.id, '--socket', PANE.socket]);
  });

  it.each([
    ['nothing', null],
    ['a command with quotes and variables', `display-message "it's $HOME" ; select-pane -t '{last}'`],
    ['a backslash', 'send-keys \\\\ Enter'],
  ])('runs what the key did before outside task windows, exactly: %s', (_, previous) => {
    const binding = rerunBinding({ node: '/usr/bin/node', script: '/opt/cli.js' }, previous);
    expect(parseBinding(binding).previous).toBe(previous);
    expect(isFleetcomBinding(binding)).toBe(true);
  });
});
