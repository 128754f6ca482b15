// What is in config.json (where it lives: paths.ts). A file that is not exactly right is refused as a
// whole (exit 2) naming the file, the key and the reason: a half-applied config would run the
// fleet with settings nobody chose.
import { readFileSync } from 'node:fs';
import type * as z from 'zod';
import { UsageError } from '../errors.js';
import { lineColumn, locateJsonError } from '../sessions/json-location.js';
import { CONFIG_KEYS, configFileSchema, type ConfigFile } from './keys.js';

export class ConfigError extends UsageError {
  constructor(readonly file: string, readonly key: string | null, readonly reason: string) {
    super(`${file}: ${key === null ? '' : `${key}: `}${reason}`);
  }
}

/** Pure: the file's settings, or ConfigError naming `file`, the key and the reason. */
export function parseConfig(text: string, file: string): ConfigFile {
  const body = text.replace(/^\uFEFF/, '');
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch (e) {
    const problem = locateJsonError(body);
    if (problem === null) throw new ConfigError(file, null, `invalid JSON: ${(e as Error).message}`);
    const { line, column } = lineColumn(body, problem.offset);
    throw new ConfigError(file, `line ${line}, column ${column}`, `invalid JSON: ${problem.message}`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new ConfigError(file, null, 'expected a JSON object of settings');
  }
  const parsed = configFileSchema.safeParse(doc);
  if (!parsed.success) throw firstProblem(file, parsed.error);
  return parsed.data;
}

function firstProblem(file: string, error: z.ZodError): ConfigError {
  const issue = error.issues[0];
  if (issue?.code === 'unrecognized_keys') {
    const [key = '?'] = issue.keys;
    // A key inside an object (notify's) is named by its path; the known ones are in the object's own message.
    if (issue.path.length > 0) return new ConfigError(file, [...issue.path.map(String), key].join('.'), 'unknown key');
    return new ConfigError(file, key, `unknown key (known: ${CONFIG_KEYS.join(', ')})`);
  }
  const key = issue?.path.map(String).join('.') ?? '';
  return new ConfigError(file, key === '' ? null : key, issue?.message ?? 'invalid');
}

/** The file's settings; `{}` when there is no file. Anything unreadable is a ConfigError. */
export function readConfig(file: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return {};
    throw new ConfigError(file, null, code === 'EISDIR' ? 'is a directory, not a file' : `cannot be read (${code ?? (e as Error).message})`);
  }
  return parseConfig(text, file);
}
