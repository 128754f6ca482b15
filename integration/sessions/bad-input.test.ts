// Bad input at scale: a recipe of 5 000 missing directories (one of 300 000 once printed
// 300 000 lines) is summed up by reason in `up SESSION`'s log, `load` and `doctor`, while
// --verbose and --json give every entry; a file over 16 MiB is refused before it is read.
import { statSync } from 'node:fs';
import { truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeSlug } from '../../src/harness/index.js';
import { runCli } from '../helpers/cli.js';
import { startFleet } from '../helpers/fleet.js';
import { useSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';

const MISSING = 5_000;
const ID = 'c8c4a5cc-0b32-4ba0-a6b4-6ed08c218e0d';
const lines = (text: string) => text.split('\n').filter((l) => l !== '');

describe('bad input at scale', () => {
  it('sums up thousands of warnings by reason in up, load and doctor; --verbose and --json give every one', async () => {
    const sb = await useSandbox();
    const w = await sb.mkdir('w');
    // The conversation exists, so its claude runs on and holds it.
    const project = await sb.mkdir('home', '.claude', 'projects', claudeSlug(w));
    await writeFile(join(project, `${ID}.jsonl`), `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'hi' } })}\n`);
    const dirs: Record<string, string[]> = { [w]: ['sleep 600', ...Array.from({ length: 3 }, () => `claude --resume '${ID}'`)] };
    for (let i = 0; i < MISSING; i++) dirs[`/nonexistent/fleetcom/d${i}`] = ['sleep 1'];
    const file = join(sb.dir, 'many.json');
    await writeFile(file, JSON.stringify({ version: 1, name: 'many', dirs }));

    // up SESSION: one line for the missing directories, one for the conversation named twice.
    const fleet = await startFleet(sb, { args: [file] });
    await waitFor(async () => (await fleet.ls()).length === 2, { what: "the two tasks of many.json's one existing directory" });
    const log = await waitFor(async () => {
      const text = await fleet.log();
      return text.includes('fleet up in tmux session') && text;
    }, { what: 'the fleet up line' });
    const gone = lines(log).filter((l) => l.includes('the directory does not exist'));
    expect(gone).toEqual([
      `skipping ${MISSING} task(s) in ${MISSING} directories: the directory does not exist: /nonexistent/fleetcom/d0, /nonexistent/fleetcom/d1, /nonexistent/fleetcom/d2 and ${MISSING - 3} more (fleetcom doctor --verbose '${file}' lists every one)`,
    ]);
    expect(lines(log).filter((l) => l.includes('named twice'))).toEqual([
      expect.stringMatching(new RegExp(`skipped: 2 task\\(s\\): its conversation is named twice in this recipe; started once: ${w}: claude --resume '${ID}', ${w}: claude --resume '${ID}'$`)),
    ]);

    // load again: the claude entries are the fleet's own now, three of them in one line.
    const plain = await fleet.cli('load', file);
    expect(plain.exitCode).toBe(0);
    expect(lines(plain.stderr)).toEqual([
      `skipping ${MISSING} task(s) in ${MISSING} directories: the directory does not exist: /nonexistent/fleetcom/d0, /nonexistent/fleetcom/d1, /nonexistent/fleetcom/d2 and ${MISSING - 3} more (--verbose lists every one)`,
      `skipped: 3 task(s): its conversation is already open in this fleet; not started again (was this recipe loaded twice?): ${w}: claude --resume '${ID}', ${w}: claude --resume '${ID}', ${w}: claude --resume '${ID}'`,
      "loaded 'many': 1 task(s)",
    ]);

    const verbose = await fleet.cli('load', '--verbose', file);
    expect(verbose.exitCode).toBe(0);
    const each = lines(verbose.stderr);
    expect(each.filter((l) => /^skipping 1 task\(s\) in \/nonexistent\/fleetcom\/d\d+: the directory does not exist$/.test(l))).toHaveLength(MISSING);
    expect(each.filter((l) => l.startsWith(`skipped: ${w}: claude --resume '${ID}': conversation ${ID} is open in fleetcom task `))).toHaveLength(3);

    const json = await fleet.cli('load', '--json', file);
    expect(json.exitCode).toBe(0);
    expect(lines(json.stderr)).toEqual(["loaded 'many': 1 task(s)"]);
    const doc = JSON.parse(json.stdout) as { session: string; ids: number[]; missingDirectories: Array<{ dir: string; tasks: number }>; skipped: Array<{ entry: string; reason: string }>; errors: unknown[] };
    expect(doc).toMatchObject({ session: 'many', file, errors: [] });
    expect(doc.ids).toHaveLength(1);
    expect(doc.missingDirectories).toHaveLength(MISSING);
    expect(doc.missingDirectories[MISSING - 1]).toEqual({ dir: `/nonexistent/fleetcom/d${MISSING - 1}`, tasks: 1 });
    expect(doc.skipped.map((s) => s.entry)).toEqual(Array.from({ length: 3 }, () => `${w}: claude --resume '${ID}'`));

    // doctor: three rows of the missing directories and one that counts the rest.
    const doctor = await fleet.cli('doctor', file);
    expect(doctor.exitCode).toBe(1);
    const rows = lines(doctor.stdout);
    expect(rows.filter((r) => r.startsWith('/nonexistent/'))).toHaveLength(3);
    expect(rows).toContainEqual(expect.stringMatching(new RegExp(`^… and ${MISSING - 3} more +fail +the directory does not exist \\(--verbose lists every one\\)`)));
    expect(rows.length).toBeLessThan(12);
    const doctorAll = await fleet.cli('doctor', '--verbose', file);
    expect(lines(doctorAll.stdout).filter((r) => r.startsWith('/nonexistent/'))).toHaveLength(MISSING);
    const doctorJson = JSON.parse((await fleet.cli('doctor', '--json', file)).stdout) as { entries: unknown[] };
    expect(doctorJson.entries).toHaveLength(MISSING + 4);
  });

  it('refuses a recipe over 16 MiB at once, naming it and the limit: nothing spawned, the file untouched; one under it loads', async () => {
    const sb = await useSandbox();
    const w = await sb.mkdir('w');
    const huge = join(sb.dir, 'huge.json');
    await writeFile(huge, JSON.stringify({ version: 1, name: 'huge', dirs: { [w]: ['sleep 600'] } }));
    await truncate(huge, 17 * 1024 * 1024); // sparse: 17 MiB that take no disk
    const before = statSync(huge);
    const refusal = `fleetcom: ${huge}: too large for a session file (${17 * 1024 * 1024} bytes); the limit is 16 MiB (16777216 bytes)\n`;

    // Outside tmux, up refuses it before it starts a tmux server.
    const up = await runCli(['up', '--detach', '--tmux-socket', sb.socket, huge], { env: sb.env, cwd: sb.dir });
    expect(up).toMatchObject({ exitCode: 1, stderr: refusal });
    await expect(sb.tmux('list-sessions')).rejects.toThrow();

    const fleet = await startFleet(sb);
    for (const args of [['load', huge], ['recover', huge], ['doctor', huge], ['doctor', '--fix', huge]]) {
      const r = await fleet.cli(...args);
      expect(r, args.join(' ')).toMatchObject({ exitCode: 1, stdout: '', stderr: refusal });
    }
    // A recipe on stdin (how a host gets its part) is cut off at the limit, not read to its end.
    const flood = '{"version": 1, "name": "flood", "dirs": {}}'.padEnd(17 * 1024 * 1024, ' ');
    for (const args of [['load', '-'], ['doctor', '-']]) {
      const r = await runCli(args, { env: sb.env, cwd: sb.dir, input: flood });
      expect(r.exitCode, args.join(' ')).toBe(1);
      expect(r.stderr, args.join(' ')).toMatch(/^fleetcom: \(stdin\): too large for a session file \(\d+ bytes so far\); the limit is 16 MiB \(16777216 bytes\)\n$/);
    }
    expect(await fleet.ls()).toEqual([]);
    const after = statSync(huge);
    expect([after.size, after.mtimeMs, after.blocks]).toEqual([before.size, before.mtimeMs, before.blocks]);

    // Under the limit: 20 tasks in 15 MiB (the rest is white space) load.
    const big = join(sb.dir, 'big.json');
    const text = JSON.stringify({ version: 1, name: 'big', dirs: { [w]: Array.from({ length: 20 }, (_, i) => `sleep ${600 + i}`) } });
    await writeFile(big, text.padEnd(15 * 1024 * 1024, ' '));
    const loaded = await fleet.cli('load', big);
    expect(loaded.exitCode, loaded.stderr).toBe(0);
    expect(loaded.stderr).toBe("loaded 'big': 20 task(s)\n");
    expect(await fleet.ls()).toHaveLength(20);
  });
});
