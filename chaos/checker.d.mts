// Types of checker.mjs for the TypeScript unit tests.
export interface TruthRecord {
  t: number;
  pid: number;
  agent: string;
  event: 'start' | 'enter' | 'spoke' | 'subagent' | 'crash';
  id: string | null;
  cwd: string;
  parent?: string;
}
export interface ObservedFile {
  file: string;
  kind: 'recipe' | 'snapshot';
  text: string;
  fresh?: boolean;
  expectedEntries?: number;
  current?: boolean;
}
export interface Observation {
  truth: TruthRecord[];
  alive?: number[];
  ls?: Array<Record<string, unknown>> | null;
  home?: string;
  files?: ObservedFile[];
  supervisors?: Array<{ pid: number }>;
  commands?: Array<{ argv: string[]; ms: number; deadlineMs: number; timedOut: boolean }>;
  windows?: Array<{ windowId: string; paneId: string; agent: string }>;
  reported?: string[];
  panes?: Array<{ pid: number; paneId: string }>;
}
export interface Violation {
  invariant: string;
  kind: 'safety' | 'settle';
  evidence: string;
}
export const AGENTS: string[];
export function strictId(agent: string, id: unknown): boolean;
export function parseTruth(text: string): TruthRecord[];
export function resumeOf(cmd: string): { agent: string | null; id: string | null };
export function recipeEntries(text: string, home: string): { torn?: string; entries?: Array<{ dir: string; cmd: string }>; closed?: boolean };
export function check(obs: Observation): Violation[];
