import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach } from 'vitest';

// Shared ids of the contract and a temp-dir helper: every directory made here lives under
// os.tmpdir() and is removed after each test.

export const ID = 'c8c4a5cc-0b32-4ba0-a6b4-6ed08c218e0d';
export const OTHER = '11111111-2222-4333-8444-555555555555';
export const CID = '019f5453-de22-7240-b2e5-0d32692aa6d9';

const made: string[] = [];

afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

export function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetcom-harness-'));
  made.push(dir);
  return dir;
}

/** Writes a file, creating its parent directories. */
export function write(file: string, text: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

/** A v7 id whose time is `ms` (its other bits fixed, `tail` varying the last group). */
export function v7(ms: number, tail = 0): string {
  const hex = ms.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-${tail.toString(16).padStart(12, '0')}`;
}

/** A claude transcript line. */
export const USER_LINE = JSON.stringify({ type: 'user', message: { role: 'user', content: 'hi' } });
export const BOOKKEEPING = [
  JSON.stringify({ type: 'mode', mode: 'default' }),
  JSON.stringify({ type: 'permission-mode', permissionMode: 'default' }),
].join('\n');
