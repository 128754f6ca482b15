import { chmodSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { trustedPaths } from '../../../src/fleet/adoption/adopted-paths.js';
import type { Task } from '../../../src/fleet/supervisor/task.js';
import { tempDir } from '../../harness/fixtures.js';

function task(id: number, captureFile: string | null): Task {
  return {
    id, run: 0, cwd: '/w', command: 'claude', name: null, group: null, tagged: false, harness: 'claude', pinnedId: null,
    targetId: null, captureFile, home: null, spawnedAt: 0, windowId: `@${id}`, paneId: `%${id}`, exitHint: null,
    exitStatus: null, killed: false, endedAt: null, everHeld: [], env: {}, lastOutputAt: 0, captured: null,
  } as Task;
}

/** A capture root with namespaces named like fleetcom's, made as fleetcom makes them (0700). */
function world(...names: string[]) {
  const root = join(tempDir(), 'captures');
  mkdirSync(root, { mode: 0o700 });
  const ns = names.map((name) => {
    const dir = join(root, name);
    mkdirSync(dir, { mode: 0o700 });
    return dir;
  });
  return { root, ns };
}

function adopt(root: string, claimed: string[], ...files: Array<string | null>) {
  const warnings: string[] = [];
  const adopted = trustedPaths({ tasks: files.map((f, i) => task(i + 1, f)), nextId: files.length + 1, namespaces: claimed }, root, (w) => warnings.push(w));
  return { namespaces: adopted.namespaces, files: adopted.tasks.map((t) => t.captureFile), warnings };
}

describe('paths an adoption reads back', () => {
  it('keeps a namespace directly under the capture root and the capture files in it', () => {
    const { root, ns: [ns] } = world('4242-abcdefabcdef');
    expect(adopt(root, [ns!], `${ns}/task-1-0.json`, null)).toEqual({ namespaces: [ns], files: [`${ns}/task-1-0.json`, null], warnings: [] });
  });

  it('takes over the namespaces the capture files lie in when state.json names none (lost) or another', () => {
    const { root, ns: [a, b, own] } = world('4242-abcdefabcdef', '4343-abcdefabcdef', '4444-abcdefabcdef');
    expect(adopt(root, [], `${a}/task-1-0.json`, `${b}/task-2-3.json`, `${a}/task-3-0.json`).namespaces).toEqual([a, b]);
    expect(adopt(root, [own!], `${a}/task-1-0.json`).namespaces).toEqual([own, a]);
  });

  it('skips a namespace that is gone, keeping the capture file (nothing there to read)', () => {
    const { root } = world();
    const gone = `${root}/4242-abcdefabcdef`;
    expect(adopt(root, [gone], `${gone}/task-1-0.json`)).toEqual({ namespaces: [], files: [`${gone}/task-1-0.json`], warnings: [] });
  });

  it('drops a namespace that others can write into or that is a symbolic link, and the capture files in it', () => {
    const { root, ns: [open] } = world('4242-abcdefabcdef');
    chmodSync(open!, 0o777);
    const elsewhere = tempDir();
    const link = `${root}/4343-abcdefabcdef`;
    symlinkSync(elsewhere, link);
    const got = adopt(root, [], `${open}/task-1-0.json`, `${link}/task-2-0.json`);
    expect(got.namespaces).toEqual([]);
    expect(got.files).toEqual([null, null]);
    expect(got.warnings).toEqual([
      `ignoring the capture namespace ${open} of an earlier supervisor: it is writable by group (mode 0777)`,
      `task 1: ignoring its capture file ${open}/task-1-0.json: its namespace is not safe`,
      `ignoring the capture namespace ${link} of an earlier supervisor: it is a symbolic link`,
      `task 2: ignoring its capture file ${link}/task-2-0.json: its namespace is not safe`,
    ]);
  });

  it.each([
    ['outside the root', (root: string) => `${root}/../4242-abcdefabcdef`],
    ['the root itself', (root: string) => root],
    ['deeper under the root', (root: string) => `${root}/4242-abcdefabcdef/4242-abcdefabcdef`],
    ['escaping the root with ..', (root: string) => `${root}/x/../../4242-abcdefabcdef`],
    ['not named like a namespace', (root: string) => `${root}/work`],
  ])('drops a namespace %s, with a warning', (_where, place) => {
    const { root } = world();
    const namespace = place(root);
    mkdirSync(namespace, { recursive: true });
    const got = adopt(root, [namespace]);
    expect(got.namespaces).toEqual([]);
    expect(got.warnings).toEqual([expect.stringContaining(`ignoring the capture namespace ${namespace}`)]);
  });

  it.each([
    ['outside the root', () => '/home/me/notes/task-1-0.json'],
    ['in the root but in no namespace', (root: string) => `${root}/task-1-0.json`],
    ['in a namespace, not named like a capture file', (_: string, ns: string) => `${ns}/claude-settings.json`],
    ['escaping with ..', (_: string, ns: string) => `${ns}/../../task-1-0.json`],
  ])('drops a capture file %s, with a warning, and keeps the task', (_where, place) => {
    const { root, ns: [ns] } = world('4242-abcdefabcdef');
    const file = place(root, ns!);
    const got = adopt(root, [ns!], file);
    expect(got.files).toEqual([null]);
    expect(got.warnings).toEqual([expect.stringContaining(`task 1: ignoring its capture file ${file}`)]);
  });
});
