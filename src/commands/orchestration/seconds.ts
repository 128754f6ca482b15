// `--timeout S` of the orchestration commands: seconds, fractions allowed, up to a day.
import { UsageError } from '../../errors.js';

export function timeoutMs(value: string | undefined, fallback: number): number;
export function timeoutMs(value: string | undefined, fallback: null): number | null;
export function timeoutMs(value: string | undefined, fallback: number | null): number | null {
  if (value === undefined) return fallback;
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(seconds > 0) || seconds > 86_400) throw new UsageError(`--timeout ${value}: expected seconds, more than 0 and at most 86400`);
  return Math.round(seconds * 1000);
}
