import { quoteShell } from './harness/quote.js';

// product.md §2: one word after `--` is the command string verbatim; several words are joined
// with spaces, each quoted POSIX-style only when the shell would otherwise change it.
const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./~-]+$/;

export function joinCommandWords(words: readonly string[]): string {
  if (words.length === 1) return words[0] ?? '';
  return words.map((word) => (isPlainWord(word) ? word : quoteShell(word))).join(' ');
}

// `~` and zsh's `=cmd` expand only at the start of a word.
function isPlainWord(word: string): boolean {
  return SAFE_WORD.test(word) && !word.startsWith('~') && !word.startsWith('=');
}
