// Public API of the resume core. STUBS: the harness work replaces each body, keeping the
// signatures (other modules code against them).
import type {
  AgentDetection,
  CodexRoute,
  Detection,
  HarnessName,
  InstrumentInput,
  InstrumentPlan,
  Resolved,
  ResolveOptions,
  RunEvidence,
} from './types.js';

export type * from './types.js';

const todo = (): never => {
  throw new Error('not implemented yet');
};

/** Contract section 1: exactly 8-4-4-4-12 lowercase hex. */
export function isValidId(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value);
}

/** Contract section 2. */
export function detect(_command: string): Detection {
  return todo();
}

/** POSIX single-quoting: `'…'` with `'` → `'\''`. */
export function quoteShell(_value: string): string {
  return todo();
}

/** Contract section 5 + 8.6, reading `<codexHome>/config.toml` and the profile file. */
export function readCodexRoute(_codexHome: string): CodexRoute {
  return todo();
}

/** Contract section 4. */
export function instrument(_input: InstrumentInput): InstrumentPlan {
  return todo();
}

/** Contract section 4: CLAUDE_CONFIG_DIR / CODEX_HOME / GROK_HOME, else $HOME/.<name>. */
export function resolveHome(_harness: HarnessName, _env: Readonly<Record<string, string | undefined>>): string {
  return todo();
}

/** Channel 2 for one run: read its capture file now and apply the 8.2/8.3 file checks. */
export function captureId(_evidence: RunEvidence, _now: number): string | null {
  return todo();
}

/** Channel 1: the last valid exit hint in retained text (contract section 6, 8.4). */
export function scrapeExit(_harness: HarnessName, _text: string): string | null {
  return todo();
}

/** Precedence 1-3 (and 4 when opts.correlate), skipping ids that fail the section 8 checks. */
export function resolveId(_evidence: RunEvidence, _opts: ResolveOptions): Resolved | null {
  return todo();
}

/** `<program as typed> <selector> '<id>'`; the id is checked again here. */
export function resumeCommand(_detection: AgentDetection, _id: string): string {
  return todo();
}

/** What a save or rerun runs: the canonical resume command, or `command` unchanged. */
export function rewriteCommand(_command: string, _id: string | null): string {
  return todo();
}
