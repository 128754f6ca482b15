// A save of an empty fleet (typically right after `up`, before `load`) must not replace a good
// recipe with an empty one.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFleet } from '../helpers/fleet.js';
import { useSandbox } from '../helpers/sandbox.js';
import { readDoc, sessionsDir } from './kit.js';

describe('fleetcom save of an empty fleet', () => {
  it('refuses to replace a recipe, names why, and writes with --force only', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const id = await fleet.run('sleep 600');
    expect((await fleet.cli('save', 'work')).exitCode).toBe(0);
    const good = await readFile(join(sessionsDir(sb), 'work.json'), 'utf8');
    expect((await fleet.cli('rm', id)).exitCode).toBe(0);

    const refused = await fleet.cli('save', 'work');
    expect(refused).toEqual({ exitCode: 1, stdout: '', stderr: 'fleetcom: the fleet has no tasks; nothing saved (--force writes an empty session)\n' });
    expect(await readFile(join(sessionsDir(sb), 'work.json'), 'utf8')).toBe(good);

    const output = join(sb.dir, 'fleet.json');
    await writeFile(output, good);
    expect((await fleet.cli('save', '--output', output)).exitCode).toBe(1);
    expect(await readFile(output, 'utf8')).toBe(good);

    const printed = await fleet.cli('save', 'work', '--stdout');
    expect(printed.exitCode).toBe(0);
    expect(JSON.parse(printed.stdout)).toMatchObject({ name: 'work', dirs: {} });

    expect((await fleet.cli('save', 'work', '--force')).exitCode).toBe(0);
    expect(await readDoc(join(sessionsDir(sb), 'work.json'))).toMatchObject({ name: 'work', dirs: {} });
  });
});
