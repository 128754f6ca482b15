// The program word of a command (contract section 2): the rules detection applies to it, kept
// apart from detection so that the agents' own files can use them without importing the registry.

/** Characters that make a program word mean something other than a path to run. */
const SHELL_SYNTAX = /[|;&<>$#`()\\'"=\n\r*?[\]{}]/;

export function hasShellSyntax(word: string): boolean {
  return SHELL_SYNTAX.test(word);
}

/** The text after the last `/`, ignoring trailing ones (`/usr/bin/claude` → `claude`). */
export function programBasename(word: string): string {
  const trimmed = word.replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}
