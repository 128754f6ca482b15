// Raw terminal input → keys. Pure. Understands what tmux sends to a pane: arrows in normal
// (`ESC [ A`) and application (`ESC O A`) mode, Enter as CR, Backspace as DEL or BS, a lone
// ESC, Ctrl-C as byte 3, and UTF-8 text; other escape sequences are skipped whole.
import type { Key } from './keys.js';

const ARROWS: Record<string, Key['name']> = { A: 'up', B: 'down', C: 'right', D: 'left' };

export function decodeKeys(data: string): Key[] {
  const keys: Key[] = [];
  const chars = Array.from(data);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] ?? '';
    if (c === '\x1b') {
      const next = chars[i + 1];
      if (next === '[' || next === 'O') {
        let j = i + 2;
        while (j < chars.length && /[0-9;?]/.test(chars[j] ?? '')) j++;
        const final = chars[j];
        if (final === undefined) {
          keys.push({ name: 'escape' });
          break;
        }
        const arrow = ARROWS[final];
        if (arrow) keys.push({ name: arrow } as Key);
        i = j;
        continue;
      }
      keys.push({ name: 'escape' });
      continue;
    }
    if (c === '\r' || c === '\n') keys.push({ name: 'enter' });
    else if (c === '\x7f' || c === '\b') keys.push({ name: 'backspace' });
    else if (c === '\t') keys.push({ name: 'tab' });
    else if (c === '\x03') keys.push({ name: 'interrupt' });
    else if (!/\p{Cc}/u.test(c)) keys.push({ name: 'char', char: c });
  }
  return keys;
}
