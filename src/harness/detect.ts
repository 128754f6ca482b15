import type { Harness } from './harness.js';
import { HARNESSES } from './registry.js';
import type { Detection } from './types.js';

// Contract section 2: the narrow command boundary, the same word rules for every harness.
// The reasons of opaque results are shown to users (`fleetcom explain`): they name the rule.

export const OPAQUE_REASONS = {
  empty: 'the command is empty',
  shellSyntax: 'the program word contains shell syntax',
  notAgent: 'not an agent command',
} as const;

/** Characters that make a program word mean something other than a path to run. */
const SHELL_SYNTAX = /[|;&<>$#`()\\'"=\n\r*?[\]{}]/;

/** Words split on spaces and tabs only (newline and CR are not separators), empties dropped. */
export function splitWords(command: string): string[] {
  return command.split(/[ \t]+/).filter((word) => word !== '');
}

/** The text after the last `/`, ignoring trailing ones (`/usr/bin/claude` → `claude`). */
export function programBasename(word: string): string {
  const trimmed = word.replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/** Word 3 of a resume form: one surrounding pair of single quotes removed, if present. */
function unquoteId(word: string): string {
  return word.length >= 2 && word.startsWith("'") && word.endsWith("'") ? word.slice(1, -1) : word;
}

function resumeFormReason(harness: Harness): string {
  return `a resume form must be exactly ${harness.selectors.map((selector) => `\`${harness.name} ${selector} <id>\``).join(' or ')}`;
}

/** Classifies a requested command against the harnesses, in registry order. */
export function detectWith(harnesses: readonly Harness[], command: string): Detection {
  const opaque = (reason: string): Detection => ({ form: 'opaque', harness: null, reason });
  const words = splitWords(command);
  const [program, selector, target] = words;
  if (program === undefined) return opaque(OPAQUE_REASONS.empty);
  if (SHELL_SYNTAX.test(program)) return opaque(OPAQUE_REASONS.shellSyntax);
  const basename = programBasename(program);
  const harness = harnesses.find((candidate) => candidate.name === basename);
  if (harness === undefined) return opaque(OPAQUE_REASONS.notAgent);
  if (words.length === 1) return { form: 'bare', harness: harness.name, program };
  if (words.length !== 3 || selector === undefined || !harness.selectors.includes(selector) || target === undefined) {
    return opaque(resumeFormReason(harness));
  }
  const targetId = unquoteId(target);
  if (!harness.isId(targetId)) {
    return opaque(`the resume id is not ${harness.idShape}; ${resumeFormReason(harness)}`);
  }
  return { form: 'resume', harness: harness.name, program, targetId };
}

/** Contract sections 2 and 9.1, for every harness of the registry. */
export function detect(command: string): Detection {
  return detectWith(HARNESSES, command);
}
