// The bench runner's smoke mode as CI runs it: a figure runs with a handful of samples, gets
// no verdict, and counts in a vitest-shaped report. The capture figure also proves the bench
// still fits the resume core (its transcripts are bare `{"type":"user"}` records).
import { execa } from 'execa';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const runBench = (args: string[], env: Record<string, string | undefined>) =>
  execa(process.execPath, [join(repoRoot, 'bench', 'run.mjs'), ...args], { env, extendEnv: false, cwd: repoRoot, reject: false, timeout: 60_000 });

describe('npm run bench -- --smoke', () => {
  it('runs every figure of a bench file without verdicts and reports each as a passed test', async () => {
    const sb = await useSandbox();
    const report = join(sb.dir, 'reports', 'bench.json');
    const r = await runBench(['--smoke', '--report', report, 'capture-latency'], { ...sb.env, TMPDIR: sb.dir });
    expect(r.stderr).not.toContain('failed');
    expect(r.exitCode).toBe(0);
    const figures = String(r.stdout).split('\n').filter((line) => line.startsWith('capture:'));
    expect(figures).toHaveLength(3);
    for (const line of figures) expect(line).toMatch(/ {2}5 .* info$/);
    expect(JSON.parse(readFileSync(report, 'utf8'))).toEqual({ numPassedTests: 3, numFailedTests: 0, success: true });
  });

  it('refuses an unknown option instead of running the full bench', async () => {
    const sb = await useSandbox();
    const r = await runBench(['--smok'], sb.env);
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toContain('unknown option --smok');
  });
});
