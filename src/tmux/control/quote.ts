// Argv arrays → one line of tmux's command language, for the control-mode client. A client
// started with argv hands tmux its words as they are; a control client sends text, which tmux's
// parser reads like a configuration file: unquoted `$X` and `~` expand, `#` starts a comment,
// `;` ends a command, `{` opens a block, `%if` is a directive, a newline ends the line. So every
// argument goes quoted: single quotes (nothing inside is special) when it holds no `'` and no
// control character, else double quotes with `\\`, `\"`, `\$` and control characters as octal
// `\ooo` (tmux 3.2's parser reads all of these). A quoted word is never a separator, so an
// argument ending in `;` needs none of the argv escaping runner.ts does. Pure.

/** A command name tmux accepts unquoted (`list-panes`). */
const COMMAND_NAME = /^[a-z][a-z-]*$/;

/** One argument as a token tmux's parser reads back exactly. */
export function quoteWord(word: string): string {
  if (!/['\u0000-\u001f\u007f]/.test(word)) return `'${word}'`;
  let quoted = '"';
  for (const char of word) {
    const code = char.codePointAt(0)!;
    if (char === '\\' || char === '"' || char === '$') quoted += `\\${char}`;
    else if (code < 0x20 || code === 0x7f) quoted += `\\${code.toString(8).padStart(3, '0')}`;
    else quoted += char;
  }
  return `${quoted}"`;
}

/**
 * Commands (each an argv, its first word the command's name) as one line, ` ; ` between them.
 * Throws for a command without a plain name: nothing else may open a line (a `%if`, an
 * assignment `X=y`, a `{`).
 */
export function commandLine(commands: readonly (readonly string[])[]): string {
  if (commands.length === 0) throw new Error('a command line needs at least one command');
  return commands
    .map(([name, ...args]) => {
      if (name === undefined || !COMMAND_NAME.test(name)) throw new Error(`not a tmux command name: ${JSON.stringify(name ?? '')}`);
      return [name, ...args.map(quoteWord)].join(' ');
    })
    .join(' ; ');
}

/**
 * The commands of an argv `run` (an element exactly `;` separates commands, as a client's
 * argv does) as separate argvs.
 */
export function splitCommands(args: readonly string[]): string[][] {
  const commands: string[][] = [[]];
  for (const arg of args) {
    if (arg === ';') commands.push([]);
    else commands.at(-1)!.push(arg);
  }
  return commands.filter((command) => command.length > 0);
}
