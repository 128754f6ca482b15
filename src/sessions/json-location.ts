// Where a JSON text goes wrong, independent of the Node version: V8's own messages carry a
// position only sometimes (`Unexpected token 'x', "…" is not valid JSON` has none on Node 20).
// Pure: a small recursive-descent scanner over RFC 8259, run only after JSON.parse failed.

export interface JsonProblem {
  /** UTF-16 offset of the first offending character (text.length at end of input). */
  offset: number;
  message: string;
}

export interface LineColumn {
  line: number;
  column: number;
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

class Stop {
  constructor(readonly problem: JsonProblem) {}
}

/** The first syntax error in `text`, or null if `text` is valid JSON. */
export function locateJsonError(text: string): JsonProblem | null {
  let i = 0;
  const fail = (message: string, at = i): never => {
    throw new Stop({ offset: at, message: at >= text.length ? 'unexpected end of file' : message });
  };
  const shown = (): string => JSON.stringify(String.fromCodePoint(text.codePointAt(i) ?? 0));
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const literal = (word: string): void => {
    for (const ch of word) {
      if (text[i] !== ch) fail(`unexpected character ${shown()}`);
      i++;
    }
  };
  const string = (): void => {
    i++; // opening quote
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) fail('control character inside a string (escape it)');
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('invalid \\u escape');
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) {
          i += 2;
        } else {
          fail('invalid escape in a string', i + 1);
        }
      } else {
        i++;
      }
    }
  };
  const number = (): void => {
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m === null) fail(`unexpected character ${shown()}`);
    i += (m as RegExpExecArray)[0].length;
  };
  /** After a member or an element: `,` means another follows, `close` ends the container. */
  const closedBy = (close: '}' | ']'): boolean => {
    ws();
    if (text[i] === ',') {
      i++;
      return false;
    }
    if (text[i] === close) {
      i++;
      return true;
    }
    return fail(`expected ',' or '${close}'`);
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a double-quoted property name');
        string();
        ws();
        if (text[i] !== ':') fail("expected ':' after a property name");
        i++;
        value();
        if (closedBy('}')) return;
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        if (closedBy(']')) return;
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    fail(`unexpected character ${shown()}`);
  };

  try {
    value();
    ws();
    if (i < text.length) fail('unexpected content after the JSON value');
    return null;
  } catch (e) {
    if (e instanceof Stop) return e.problem;
    // Nesting deep enough to exhaust the stack: no position, but still a refusal.
    return { offset: 0, message: 'nested too deeply to read' };
  }
}

/** 1-based line and column (in characters, not UTF-16 units) of `offset` in `text`. */
export function lineColumn(text: string, offset: number): LineColumn {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  let line = 1;
  for (let k = before.indexOf('\n'); k !== -1; k = before.indexOf('\n', k + 1)) line++;
  return { line, column: Array.from(before.slice(lineStart)).length + 1 };
}
