// Hand checks of the few small JSON shapes the resume core reads (hook payloads, transcript
// and rollout records). Not zod: the harness is loaded at the start of `save`, `load` and the
// other client commands, where evaluating zod alone costs more than such a command's whole
// budget over `node -e 0` (docs/performance.md).

export type JsonObject = Record<string, unknown>;

/** `text` as a JSON object, or null when it is not JSON or not an object (a torn line, garbage). */
export function jsonObjectOf(text: string): JsonObject | null {
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) ? value : null;
  } catch {
    return null;
  }
}

/** A JSON object: not null, not an array. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `string` must be there; `string?` may be absent, but when present it must be a string. */
export type FieldKind = 'string' | 'string?' | 'boolean?';

/**
 * The first field of `fields` that `value` lacks or holds with another type, as
 * `key: expected a string`; null when every field fits. Other keys are not looked at (new
 * client versions add keys).
 */
export function fieldProblem(value: unknown, fields: Readonly<Record<string, FieldKind>>): string | null {
  if (!isJsonObject(value)) return '(payload): expected an object';
  for (const [key, kind] of Object.entries(fields)) {
    const optional = kind.endsWith('?');
    const type = optional ? kind.slice(0, -1) : kind;
    const field = value[key];
    if (field === undefined ? optional : typeof field === type) continue;
    return `${key}: expected a ${type}${field === undefined ? ', found none' : ''}`;
  }
  return null;
}
