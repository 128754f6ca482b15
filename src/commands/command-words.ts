import { quoteShell } from '../harness/quote.js';

// One word after `--` is the command string verbatim; several words are joined
// with spaces, each quoted POSIX-style when the shell would otherwise change it, so the task
// runs exactly the words the user typed.
const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

// As the first word these are not a program: `A=1` is an assignment (it would run the next
// word instead), a reserved word starts a compound command (`time` would be bash's keyword).
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
const RESERVED = new Set([
  '!', 'case', 'coproc', 'do', 'done', 'elif', 'else', 'esac', 'fi', 'for', 'foreach', 'function',
  'if', 'in', 'repeat', 'select', 'then', 'time', 'until', 'while', 'nocorrect', 'noglob',
]);

export function joinCommandWords(words: readonly string[]): string {
  if (words.length === 1) return words[0] ?? '';
  return words.map((word, index) => (isPlainWord(word, index === 0) ? word : quoteShell(word))).join(' ');
}

// `~` is absent from SAFE_WORD because bash expands it after any `=` or `:` of an
// assignment-like argument too (`echo a=~/x` prints a=/home/…/x); zsh's `=cmd` and fish's
// `%self` expand only at the start of a word.
function isPlainWord(word: string, first: boolean): boolean {
  if (!SAFE_WORD.test(word) || word.startsWith('=') || word.startsWith('%')) return false;
  return !first || (!ASSIGNMENT.test(word) && !RESERVED.has(word));
}
