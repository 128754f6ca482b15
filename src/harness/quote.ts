// Quoting for the two languages an id or path is spliced into: POSIX sh and TOML.

/** POSIX single-quoting: `'…'` with every `'` written `'\''`. One shell word, always. */
export function quoteShell(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * A TOML basic string (`"…"`): `\` → `\\`, `"` → `\"`, characters below U+0020 → `\uXXXX`
 * (uppercase hex), and DEL (U+007F) too: TOML forbids control characters raw in a basic
 * string. The value it denotes is unchanged.
 */
export function tomlBasicString(value: string): string {
  let out = '"';
  for (const ch of value) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\\') out += '\\\\';
    else if (ch === '"') out += '\\"';
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}
