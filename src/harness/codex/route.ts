import * as path from 'node:path';
import { readTextFile } from '../fs-read.js';
import type { CodexRoute } from '../types.js';

// Where codex's notify goes, read line by line: the profile file
// `<home>/<profile>.config.toml` first, then `config.toml`. No TOML library: the reader only
// has to recognise the one shape it can chain safely, and call everything else opaque.

const BLANKS = /^[ \t]*/;
const PROFILE_LINE = /^[ \t]*profile[ \t]*=[ \t]*(.*)$/;
const NOTIFY_LINE = /^[ \t]*notify[ \t]*=/;

function lines(text: string): string[] {
  return text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

/** The profile named by the first `profile = …` line with a non-empty value, or null. */
export function codexProfileName(configText: string): string | null {
  for (const line of lines(configText)) {
    const match = PROFILE_LINE.exec(line);
    if (!match) continue;
    const raw = match[1] ?? '';
    const quote = raw[0];
    let value: string;
    const close = quote === '"' || quote === "'" ? raw.indexOf(quote, 1) : -1;
    if (close !== -1) value = raw.slice(1, close);
    else value = /^[^ \t#]*/.exec(raw)?.[0] ?? '';
    if (value !== '') return value;
  }
  return null;
}

const SIMPLE_ESCAPES: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\' };

/** Parses a TOML basic string at `text[at] === '"'`; returns its value and the index after it. */
function basicString(text: string, at: number): { value: string; end: number } | null {
  let value = '';
  let i = at + 1;
  while (i < text.length) {
    const ch = text[i] ?? '';
    const code = ch.charCodeAt(0);
    if (ch === '"') return { value, end: i + 1 };
    if (ch === '\\') {
      const kind = text[i + 1] ?? '';
      const simple = SIMPLE_ESCAPES[kind];
      if (simple !== undefined) {
        value += simple;
        i += 2;
        continue;
      }
      const digits = kind === 'u' ? 4 : kind === 'U' ? 8 : 0;
      const hex = text.slice(i + 2, i + 2 + digits);
      if (digits === 0 || !new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(hex)) return null;
      const point = Number.parseInt(hex, 16);
      if (point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff)) return null;
      value += String.fromCodePoint(point);
      i += 2 + digits;
      continue;
    }
    if ((code < 0x20 && ch !== '\t') || code === 0x7f) return null;
    value += ch;
    i += 1;
  }
  return null;
}

/** Classifies the text after `notify =`: a one-line array of basic strings. */
export function classifyNotifyValue(valueText: string): CodexRoute {
  const opaque = (reason: string): CodexRoute => ({ kind: 'opaque', reason });
  const skip = (i: number): number => i + (BLANKS.exec(valueText.slice(i))?.[0].length ?? 0);
  let i = skip(0);
  if (valueText[i] !== '[') return opaque('notify is not a one-line array of strings');
  const argv: string[] = [];
  i = skip(i + 1);
  for (;;) {
    if (valueText[i] === ']') break;
    if (valueText[i] !== '"') return opaque('notify is not a one-line array of basic strings');
    const parsed = basicString(valueText, i);
    if (parsed === null) return opaque('notify holds a string fleetcom cannot read');
    argv.push(parsed.value);
    i = skip(parsed.end);
    if (valueText[i] === ',') i = skip(i + 1);
    else if (valueText[i] !== ']') return opaque('notify is not a one-line array of basic strings');
  }
  const rest = valueText.slice(skip(i + 1));
  if (rest !== '' && !rest.startsWith('#')) return opaque('notify is followed by something other than a comment');
  if (argv.length === 0) return opaque('notify is an empty array');
  if (argv.some((arg) => arg === '' || arg.includes('\n') || arg.includes('\0'))) {
    return opaque('notify has an empty element or one containing a newline');
  }
  return { kind: 'chain', argv };
}

/** The notify lines of one file: 0 → null (look further), 1 → classified, 2+ → opaque. */
function routeOfFile(text: string): CodexRoute | null {
  const found = lines(text).filter((line) => NOTIFY_LINE.test(line));
  if (found.length === 0) return null;
  if (found.length > 1) return { kind: 'opaque', reason: 'notify is set more than once' };
  const line = found[0] ?? '';
  return classifyNotifyValue(line.slice(line.indexOf('=') + 1));
}

/** Pure part: the route given `config.toml`'s text and the profile file's text ('' when missing or no profile). */
export function codexRouteFromText(configText: string, profileText: string): CodexRoute {
  return routeOfFile(profileText) ?? routeOfFile(configText) ?? { kind: 'vacant' };
}

/** Reads `<codexHome>/config.toml` and the profile file; a file that exists but cannot be read → opaque (8.6). */
export function readCodexRoute(codexHome: string): CodexRoute {
  const configPath = path.join(codexHome, 'config.toml');
  const config = readTextFile(configPath);
  if (config.kind === 'unreadable') {
    return { kind: 'opaque', reason: `cannot read ${configPath} (${config.reason})` };
  }
  const configText = config.kind === 'text' ? config.text : '';
  const profile = codexProfileName(configText);
  if (profile === null) return codexRouteFromText(configText, '');
  const profilePath = path.join(codexHome, `${profile}.config.toml`);
  const profileFile = readTextFile(profilePath);
  if (profileFile.kind === 'unreadable') {
    return { kind: 'opaque', reason: `cannot read ${profilePath} (${profileFile.reason})` };
  }
  return codexRouteFromText(configText, profileFile.kind === 'text' ? profileFile.text : '');
}
