// Small structural checks whose result types are inferred, for replies read by client
// commands: zod on that path costs every command its cold start (reply.ts says how much), so
// these few combinators stand in for it there. Each check returns the value typed, or throws
// a ShapeError naming the path of the first wrong field. The resume core's flat checks of hook
// payloads and store records are in harness/json-shape.ts.
import { isJsonObject } from '../harness/json-shape.js';

export class ShapeError extends Error {}

export type Check<T> = (value: unknown, path?: string) => T;
export type Checked<C> = C extends Check<infer T> ? T : never;

const fail = (path: string, wanted: string, value: unknown): never => {
  throw new ShapeError(`${path || '(reply)'}: expected ${wanted}, got ${value === null ? 'null' : typeof value}`);
};

export const str: Check<string> = (v, path = '') => (typeof v === 'string' ? v : fail(path, 'a string', v));
export const int: Check<number> = (v, path = '') => (Number.isSafeInteger(v) ? (v as number) : fail(path, 'an integer', v));
export const bool: Check<boolean> = (v, path = '') => (typeof v === 'boolean' ? v : fail(path, 'a boolean', v));
export const nothing: Check<null> = (v, path = '') => (v === null || v === undefined ? null : fail(path, 'no result', v));

export function nullable<T>(check: Check<T>): Check<T | null> {
  return (v, path = '') => (v === null ? null : check(v, path));
}

export function optional<T>(check: Check<T>): Check<T | undefined> {
  return (v, path = '') => (v === undefined ? undefined : check(v, path));
}

/** One of the keys of `values` (a Record over a union type, so a new member must be added here). */
export function oneOf<T extends string>(values: Record<T, true>): Check<T> {
  return (v, path = '') => (typeof v === 'string' && Object.hasOwn(values, v) ? (v as T) : fail(path, Object.keys(values).join(' | '), v));
}

export function list<T>(check: Check<T>): Check<T[]> {
  return (v, path = '') => (Array.isArray(v) ? v.map((item, i) => check(item, `${path}[${i}]`)) : fail(path, 'an array', v));
}

export function record<T>(check: Check<T>): Check<Record<string, T>> {
  return (v, path = '') => {
    if (!isJsonObject(v)) return fail(path, 'an object', v);
    return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, check(item, `${path}.${k}`)]));
  };
}

type Optional<S> = { [K in keyof S]: undefined extends Checked<S[K]> ? K : never }[keyof S];
/** Keys whose check may give undefined are optional, as in zod's inferred types. */
type ObjectOf<S> = { [K in Exclude<keyof S, Optional<S>>]: Checked<S[K]> } & { [K in Optional<S>]?: Checked<S[K]> };
type Flat<T> = { [K in keyof T]: T[K] };

/** An object with these keys (others are dropped, as zod's object does). */
export function object<S extends Record<string, Check<unknown>>>(shape: S): Check<Flat<ObjectOf<S>>> {
  return (v, path = '') => {
    if (!isJsonObject(v)) return fail(path, 'an object', v);
    const out: Record<string, unknown> = {};
    for (const [key, check] of Object.entries(shape)) {
      const value = check(v[key], path ? `${path}.${key}` : key);
      if (value !== undefined) out[key] = value;
    }
    return out as Flat<ObjectOf<S>>;
  };
}
