// `npm run test:clients -- --record` (FLEETCOM_RECORD=1): keeps a real client's exit text as a
// fixture for the scraper's unit tests (test/harness/recorded-exit.test.ts):
//   test/fixtures/<agent>/<version>-exit[-<variant>].txt   the pane's retained text, normalised
//   test/fixtures/<agent>/<version>-exit[-<variant>].json  what scraping it must give, and how it was made
// Normalised: no ANSI (capture-pane without -e, and stripped again), trailing spaces and blank
// lines trimmed, the sandbox path written `/tmp/fleetcom-sandbox` so a re-recording diffs cleanly.
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { InstalledClient } from './clients.js';

export const recording = process.env.FLEETCOM_RECORD === '1';

export interface Recorded {
  agent: InstalledClient['agent'];
  version: string;
  /** Empty for the plain `<version>-exit.txt`. */
  variant: string;
  /** The id scraping must give (null: no resumable hint in this text). */
  expectedId: string | null;
  /** One sentence on how the text was produced. */
  how: string;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

export function normaliseExitText(text: string, sandboxDir: string): string {
  return `${text
    .replace(ANSI, '')
    .replaceAll(sandboxDir, '/tmp/fleetcom-sandbox')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trim()}\n`;
}

/** Writes the fixture pair when recording; returns the .txt path, or null when not recording. */
export async function recordExit(r: Recorded, text: string, sandboxDir: string): Promise<string | null> {
  if (!recording) return null;
  const dir = new URL(`../../test/fixtures/${r.agent}/`, import.meta.url);
  await mkdir(dir, { recursive: true });
  const base = `${r.version}-exit${r.variant ? `-${r.variant}` : ''}`;
  const txt = new URL(`${base}.txt`, dir);
  await writeFile(txt, normaliseExitText(text, sandboxDir));
  const meta = {
    client: `${r.agent} ${r.version}`,
    expectedId: r.expectedId,
    how: r.how,
    recordedWith: 'npm run test:clients -- --record (clients/, tmux 160x48, offline with the mock API)',
  };
  await writeFile(new URL(`${base}.json`, dir), `${JSON.stringify(meta, null, 2)}\n`);
  return fileURLToPath(txt);
}
