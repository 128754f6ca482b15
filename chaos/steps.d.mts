// Types of steps.mjs for the TypeScript unit tests.
export interface Step {
  op: string;
  slot: number;
  kind?: string;
  home?: boolean;
}
export function prng(seed: number): { next(): number; int(n: number): number; pick<T>(list: T[]): T; weighted<T>(table: Array<[T, number]>): T };
export const AGENT_KINDS: string[];
export const SLOTS: number;
export const WEIGHTS: Array<[string, number]>;
export const OPS: string[];
export function drawSteps(seed: number, count: number): Step[];
export function describe(step: Step): string;
export function validSteps(steps: unknown): string | null;
