import { describe, expect, it } from 'vitest';
import { trustedPaths } from '../../src/fleet/adopted-paths.js';
import type { Task } from '../../src/fleet/task.js';

const ROOT = '/run/user/1000/fleetcom/captures';
const NS = `${ROOT}/4242-abcdefabcdef`;

function task(id: number, captureFile: string | null): Task {
  return {
    id, run: 0, cwd: '/w', command: 'claude', name: null, group: null, tagged: false, harness: 'claude', pinnedId: null,
    targetId: null, captureFile, home: null, spawnedAt: 0, windowId: `@${id}`, paneId: `%${id}`, exitHint: null,
    exitStatus: null, killed: false, endedAt: null, everHeld: [], env: {}, lastOutputAt: 0, captured: null,
  } as Task;
}

function adopt(namespace: string | null, ...files: Array<string | null>) {
  const warnings: string[] = [];
  const adopted = trustedPaths({ tasks: files.map((f, i) => task(i + 1, f)), nextId: files.length + 1, namespace }, ROOT, (w) => warnings.push(w));
  return { namespace: adopted.namespace, files: adopted.tasks.map((t) => t.captureFile), warnings };
}

describe('paths an adoption reads back', () => {
  it('keeps a namespace directly under the capture root and the capture files in it', () => {
    expect(adopt(NS, `${NS}/task-1-0.json`, null)).toEqual({ namespace: NS, files: [`${NS}/task-1-0.json`, null], warnings: [] });
  });

  it.each([
    ['outside the root', '/home/me/src/4242-abcdefabcdef'],
    ['the root itself', ROOT],
    ['deeper under the root', `${NS}/4242-abcdefabcdef`],
    ['escaping the root with ..', `${ROOT}/x/../../4242-abcdefabcdef`],
    ['not named like a namespace', `${ROOT}/work`],
  ])('drops a namespace %s, with a warning', (_where, namespace) => {
    const got = adopt(namespace);
    expect(got.namespace).toBeNull();
    expect(got.warnings).toEqual([expect.stringContaining(`ignoring the capture namespace ${namespace}`)]);
  });

  it.each([
    ['outside the root', '/home/me/notes/task-1-0.json'],
    ['in the root but in no namespace', `${ROOT}/task-1-0.json`],
    ['in a namespace, not named like a capture file', `${NS}/claude-settings.json`],
    ['escaping with ..', `${NS}/../../task-1-0.json`],
  ])('drops a capture file %s, with a warning, and keeps the task', (_where, file) => {
    const got = adopt(NS, file);
    expect(got.files).toEqual([null]);
    expect(got.warnings).toEqual([expect.stringContaining(`task 1: ignoring its capture file ${file}`)]);
  });
});
