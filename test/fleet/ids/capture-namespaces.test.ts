import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CaptureNamespaces } from '../../../src/fleet/ids/capture-namespaces.js';
import type { Task } from '../../../src/fleet/supervisor/task.js';
import { tempDir } from '../../harness/fixtures.js';

// The namespaces a supervisor's tasks write into, on a real directory tree.

function setup(install: () => string = () => join(tempDir(), '1-aaaaaaaaaaaa')) {
  const logs: string[] = [];
  return { logs, ns: new CaptureNamespaces(install, (line) => logs.push(line)) };
}

const writing = (captureFile: string | null) => ({ captureFile }) as Task;

describe('capture namespaces', () => {
  it("installs this supervisor's own once, on first use, and lists it before adopted ones", () => {
    let installs = 0;
    const { ns } = setup(() => `/ns/${++installs}-aaaaaaaaaaaa`);
    ns.adopt('/ns/old-1');
    expect(ns.current).toBeNull();
    expect([ns.ensure(), ns.ensure()]).toEqual(['/ns/1-aaaaaaaaaaaa', '/ns/1-aaaaaaaaaaaa']);
    expect(ns.all()).toEqual(['/ns/1-aaaaaaaaaaaa', '/ns/old-1']);
  });

  it('runs tasks uninstrumented while installing fails, says why, and tries again next time', () => {
    let fail = true;
    const { ns, logs } = setup(() => {
      if (fail) throw new Error('root is writable by others');
      return '/ns/1-aaaaaaaaaaaa';
    });
    expect(ns.ensure()).toBeNull();
    expect(logs).toEqual(['capture namespace not installed (root is writable by others); this task runs uninstrumented']);
    fail = false;
    expect(ns.ensure()).toBe('/ns/1-aaaaaaaaaaaa');
  });

  it('releases the adopted namespaces no task writes into any more, never one whose name merely starts the same', () => {
    const { ns } = setup();
    for (const dir of ['/ns/7-aaaaaaaaaaaa', '/ns/7-aaaaaaaaaaaab', '/ns/8-bbbbbbbbbbbb']) ns.adopt(dir);
    expect(ns.releaseIdle([writing('/ns/7-aaaaaaaaaaaab/task-1-0.json'), writing(null)])).toEqual(['/ns/7-aaaaaaaaaaaa', '/ns/8-bbbbbbbbbbbb']);
    expect(ns.all()).toEqual(['/ns/7-aaaaaaaaaaaab']);
    expect(ns.releaseIdle([])).toEqual(['/ns/7-aaaaaaaaaaaab']);
  });

  it("deletes a finished run's capture and events files in its own namespace, and nothing outside, saying so", () => {
    const { ns, logs } = setup();
    const dir = ns.ensure()!;
    mkdirSync(dir, { recursive: true });
    const capture = join(dir, 'task-1-0.json');
    const planted = join(tempDir(), 'task-1-0.json');
    for (const file of [capture, join(dir, 'task-1-0.events'), planted]) writeFileSync(file, '{}');
    ns.dropCapture(capture);
    ns.dropCapture(planted);
    ns.dropCapture(null);
    expect([existsSync(capture), existsSync(join(dir, 'task-1-0.events')), existsSync(planted)]).toEqual([false, false, true]);
    expect(logs).toEqual([expect.stringContaining(`${planted} is not a capture file in this fleet's namespaces; refusing to delete it`)]);
  });
});
