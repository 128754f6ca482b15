import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCompleteFrom } from '../../src/commands/completion.js';
import { programShape } from '../../src/commands/program.js';
import type { LsRecord, Request } from '../../src/control/protocol.js';
import { listenControl } from '../../src/control/server.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the Tab's task ids", () => {
  it('asks the supervisor for its state as it is, without the reconciliation an ls makes first', async () => {
    const runtime = mkdtempSync(join(tmpdir(), 'fleetcom-tab-'));
    dirs.push(runtime);
    const asked: Request[] = [];
    const task: LsRecord = {
      id: 3, run: 0, cwd: '/w', command: 'sleep 600', name: 'watcher', group: null, tagged: false, state: 'running', exitStatus: null,
      killed: false, harness: null, conversationId: null, idSource: null, resumeCommand: 'sleep 600', parkedJob: null,
      windowId: '@3', paneId: '%3', spawnedAt: '2026-12-04T08:00:00.000Z', lastOutputAt: '2026-12-04T08:00:00.000Z', attention: null, attentionSince: null,
    };
    const server = await listenControl(join(runtime, 'default.sock'), async (request) => (asked.push(request), [task]));
    let out = '';
    try {
      const deps = { env: { FLEETCOM_RUNTIME_DIR: runtime }, cwd: runtime, stdout: { write: (t: string) => (out += t) }, stderr: { write: () => true }, now: Date.now };
      expect(await runCompleteFrom(['rerun', ''], programShape(deps), deps)).toBe(0);
    } finally {
      server.close();
    }
    expect(asked).toEqual([{ op: 'ls', fromState: true }]);
    expect(out).toBe('3\twatcher (running)\n');
  });
});
