// The package as a user gets it: `npm pack` of this checkout (prepack empties dist/, prepare
// builds it), installed with `npm install -g --prefix <tmp>`, and the installed `fleetcom` run
// from that prefix's bin on a private tmux socket. Not part of `npm test`: packing rebuilds
// dist/, which the integration tests read while they run. `.ci/run` runs it after them
// (`npm run test:package`).
import { execa } from 'execa';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';
import { createSandbox, type Sandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';

let sb: Sandbox;
let tarball: string;
let prefix: string;
let files: string[];

// npm keeps this machine's network settings (a CA bundle, a proxy: without them it retries for
// minutes), cache and registry, none of which is fleetcom state; HOME is the sandbox's, and
// everything the installed fleetcom sees comes from the sandbox.
async function npm(args: string[], cwd: string): Promise<string> {
  const { stdout } = await execa('npm', args, {
    cwd,
    env: { HOME: sb.home, npm_config_cache: npmCache, npm_config_registry: npmRegistry, npm_config_update_notifier: 'false' },
  });
  return stdout;
}
let npmCache = '';
let npmRegistry = '';

beforeAll(async () => {
  npmCache = (await execa('npm', ['config', 'get', 'cache'])).stdout.trim();
  npmRegistry = (await execa('npm', ['config', 'get', 'registry'])).stdout.trim();
  sb = await createSandbox();
  const packed = JSON.parse(await npm(['pack', '--json', '--pack-destination', sb.dir], repoRoot)) as {
    filename: string;
    files: { path: string }[];
  }[];
  tarball = join(sb.dir, packed[0]!.filename);
  files = packed[0]!.files.map((f) => f.path);
  prefix = join(sb.dir, 'prefix');
  await npm(['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', tarball], sb.dir);
}, 600_000);

afterAll(async () => {
  await sb?.cleanup();
});

/** The installed bin, found through PATH like a user's shell finds it. */
function fleetcom(args: string[]) {
  return execa('fleetcom', args, {
    cwd: sb.dir,
    env: { ...sb.env, PATH: `${join(prefix, 'bin')}:${sb.env.PATH}` },
    extendEnv: false,
    reject: false,
    timeout: 60_000,
  });
}

describe('the packed tarball', () => {
  it('carries the bundled CLI, its README, the guide and package.json, and nothing for development', () => {
    expect(files).toContain('dist/cli.cjs');
    expect(files).toContain('dist/cli.js');
    expect(files).toContain('dist/chunks/client.cjs');
    expect(files).toContain('dist/chunks/save-client.js');
    expect(files).toContain('package.json');
    expect(files).toContain('README.md');
    expect(files.some((f) => f.startsWith('dist/chunks/'))).toBe(true);
    expect(files).toContain('docs/README.md');
    // The web page's files: everything `fleetcom web` serves comes from the package.
    for (const page of ['index.html', 'app.js', 'app.css', 'sw.js', 'manifest.webmanifest', 'icon.svg', 'icon-192.png']) expect(files).toContain(`dist/web/${page}`);
    const stray = files.filter(
      (f) => !/^dist\/(cli|chunks\/[\w-]+)\.c?js$/.test(f) && !/^dist\/web\/[\w.-]+$/.test(f) && !/^docs\/[\w-]+\.(md|svg|png)$/.test(f) && f !== 'package.json' && f !== 'README.md',
    );
    expect(stray).toEqual([]);
  });

  it('installs no dependency: the bundle holds them', async () => {
    const installed = await readdir(join(prefix, 'lib', 'node_modules', 'fleetcom'));
    expect(installed.sort()).toEqual(['README.md', 'dist', 'docs', 'package.json']);
  });

  it('names the installed guide in --help', async () => {
    const r = await fleetcom(['--help']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(`Guide: ${join(prefix, 'lib', 'node_modules', 'fleetcom', 'docs', 'README.md')}`);
  });

  it('prints its version from the installed bin', async () => {
    const version = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')).version as string;
    const r = await fleetcom(['--version']);
    expect({ code: r.exitCode, out: r.stdout, err: r.stderr }).toEqual({ code: 0, out: version, err: '' });
  });

  it('explains a claude launch', async () => {
    const r = await fleetcom(['explain', '--json', '--', 'claude']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ harness: 'claude', form: 'bare' });
  });

  it('serves the web page from the installed package: no file from anywhere else', async () => {
    const web = execa('fleetcom', ['web', '--port', '0'], { cwd: sb.dir, env: { ...sb.env, PATH: `${join(prefix, 'bin')}:${sb.env.PATH}` }, extendEnv: false, reject: false });
    let out = '';
    web.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    try {
      const url = new URL(await waitFor(() => /^http:\S+#token=\S+$/m.exec(out)?.[0], { what: 'the installed fleetcom web to print its URL', timeout: 30_000 }));
      const page = await fetch(url.origin);
      expect(page.status).toBe(200);
      const html = await page.text();
      const assets = [...html.matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((m) => m[1]!);
      expect(assets).toEqual(expect.arrayContaining(['/app.js', '/app.css', '/manifest.webmanifest']));
      for (const asset of assets) expect((await fetch(`${url.origin}${asset}`)).status, asset).toBe(200);
      expect(html).not.toMatch(/(?:src|href)="https?:/);
    } finally {
      web.kill('SIGTERM');
      await web;
    }
  });

  it('runs a whole fleet: up --detach, run, ls --json, save, down', async () => {
    const up = await fleetcom(['up', '--detach', '--tmux-socket', sb.socket, '--tmux-session', 'installed']);
    expect({ code: up.exitCode, out: up.stdout }).toEqual({ code: 0, out: 'installed' });
    const run = await fleetcom(['run', '--name', 'agent', '--', 'claude']);
    expect(run.exitCode).toBe(0);
    const id = run.stdout.trim();
    const record = await waitFor(async () => {
      const ls = await fleetcom(['ls', '--json']);
      const tasks = JSON.parse(ls.stdout) as { id: number; name: string | null; harness: string | null; state: string }[];
      // Running, or idle once 10 s passed without output (a loaded machine can take that long).
      return tasks.find((t) => String(t.id) === id && t.state !== 'exited');
    }, { what: 'the claude task running in ls --json', timeout: 30_000 });
    expect(record).toMatchObject({ name: 'agent', harness: 'claude' });
    expect(await sb.tmux('list-windows', '-t', 'installed', '-F', '#{window_name}')).toContain('agent');
    const save = await fleetcom(['save', 'installed']);
    expect(save.exitCode).toBe(0);
    const recipe = JSON.parse(await readFile(join(sb.env.FLEETCOM_CONFIG_DIR!, 'sessions', 'installed.json'), 'utf8'));
    expect(recipe).toMatchObject({ version: 1, name: 'installed' });
    const down = await fleetcom(['down']);
    expect(down.exitCode).toBe(0);
    await waitFor(async () => (await sb.tmux('list-sessions').catch(() => '')).includes('installed:') === false, {
      what: 'the fleet session to close',
    });
  });
});
