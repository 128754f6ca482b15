// Docs that cannot rot: what the code defines — commands and their options, config keys,
// environment variables, proven client versions — must be in docs/, and every relative link
// in README.md and docs/ must resolve (to a file, and to a heading when it names one).
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/commands/program.js';
import { configKeys } from '../../src/config/keys.js';
import { CLAUDE_PARENT_MARKERS } from '../../src/harness/claude/parent.js';
import { AGENT_HOME_VARS } from '../../src/harness/names.js';
import { PROVEN_CLIENTS } from '../../src/harness/proven-clients.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const read = (file: string) => readFileSync(join(repo, file), 'utf8');
const docFiles = readdirSync(join(repo, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
const allDocs = docFiles.map(read).join('\n');

const hidden = (c: Command) => (c as unknown as { _hidden: boolean })._hidden;
const program = buildProgram({ env: {}, cwd: '/', stdout: { write: () => true }, stderr: { write: () => true }, now: () => 0 }, () => {});
const commands = program.commands.filter((c) => !hidden(c));

/** The text of `### fleetcom <name>` up to the next heading of that level or above. */
function section(markdown: string, heading: string): string | null {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l === `### ${heading}`);
  if (start === -1) return null;
  const end = lines.findIndex((l, i) => i > start && /^#{1,3} /.test(l));
  return lines.slice(start + 1, end === -1 ? undefined : end).join('\n');
}

describe('docs/commands.md', () => {
  const doc = read('docs/commands.md');

  it.each([...commands.map((c) => c.name()), 'help'])('has a section for fleetcom %s', (name) => {
    expect(section(doc, `fleetcom ${name}`), `### fleetcom ${name}`).not.toBeNull();
  });

  it('documents every option of fleetcom itself', () => {
    for (const option of program.options.filter((o) => !o.hidden)) expect(doc, option.flags).toContain(`\`${option.flags}\``);
  });

  it.each(commands.map((c) => [c.name(), c] as const))('documents every option of fleetcom %s with an example', (name, cmd) => {
    const text = section(doc, `fleetcom ${name}`) ?? '';
    for (const option of cmd.options.filter((o) => !o.hidden)) {
      const flag = option.long ?? option.short ?? option.flags;
      expect(text, `${flag} of ${name}`).toContain(`\`${option.flags}\``);
      // The flag's row carries an example using it.
      const row = text.split('\n').find((l) => l.startsWith(`| \`${option.flags}\``)) ?? '';
      expect(row, `${flag} of ${name}: an example in its row`).toMatch(new RegExp(`\\| \`[^|]*fleetcom ${name}[^|]*${flag}`));
    }
    if (cmd.options.filter((o) => !o.hidden).length === 0) expect(text, name).toMatch(/takes no flags|```sh/);
  });
});

describe('docs/configuration.md', () => {
  const doc = read('docs/configuration.md');
  it.each(Object.entries(configKeys))('documents the config key %s with its default, its flag and its variable', (key, spec) => {
    const { flag, env } = spec as { flag?: string; env?: string };
    const row = doc.split('\n').find((l) => l.startsWith(`| \`${key}\` |`));
    expect(row, key).toBeDefined();
    expect(row, key).toContain(`\`${JSON.stringify(spec.default)}\``);
    if (flag !== undefined) expect(row, key).toContain(`\`${flag}\``);
    if (env !== undefined) expect(row, key).toContain(`\`${env}\``);
  });
});

/** Every source file of src/. */
function sources(dir = join(repo, 'src')): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/**
 * The environment variables fleetcom reads or sets, found in src/: `env.NAME` / `env['NAME']`
 * reads, the agents' home variables (harness/names.ts), `$NAME` and `${NAME-…}` in the shell scripts it writes,
 * `FLEETCOM_*: value` in the environments it builds, claude's session markers it removes, and
 * the variables config keys may be set by.
 */
function environmentVariables(): Map<string, string> {
  const found = new Map<string, string>();
  const patterns = [
    /\benv\??\.([A-Z][A-Z0-9_]+)\b/g,
    /\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]/g,
    /\$([A-Z][A-Z0-9_]{2,})\b/g,
    /\$\{([A-Z][A-Z0-9_]+)[-%:]/g,
    /\b(FLEETCOM_[A-Z0-9_]+):/g,
  ];
  for (const file of sources()) {
    const text = readFileSync(file, 'utf8');
    for (const pattern of patterns) for (const m of text.matchAll(pattern)) if (!found.has(m[1]!)) found.set(m[1]!, relative(repo, file));
  }
  for (const name of [...CLAUDE_PARENT_MARKERS, 'CLAUDE_BG_']) if (!found.has(name)) found.set(name, 'src/harness/claude/parent.ts');
  for (const name of AGENT_HOME_VARS) if (!found.has(name)) found.set(name, 'src/harness/names.ts');
  for (const spec of Object.values(configKeys) as { env?: string }[]) if (spec.env !== undefined && !found.has(spec.env)) found.set(spec.env, 'src/config/keys.ts');
  return found;
}

describe('the environment variables fleetcom reads or sets', () => {
  const variables = environmentVariables();

  it('are found in the code (the scan sees the known ones)', () => {
    for (const name of ['FLEETCOM_RUNTIME_DIR', 'FLEETCOM_CONFIG_DIR', 'XDG_RUNTIME_DIR', 'CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'NO_COLOR', 'FLEETCOM_CAPTURE_FILE', 'FLEETCOM_TASK_ID']) {
      expect(variables.has(name), name).toBe(true);
    }
  });

  it.each([...environmentVariables()])('documents %s (found in %s)', (name) => {
    expect(allDocs, `${name} in docs/`).toMatch(new RegExp(`\`[^\`\\n]*\\b${name}`));
  });
});

describe('the proven client versions', () => {
  it.each(PROVEN_CLIENTS.map((c) => [c.agent, c.version] as const))('names %s %s in README and docs/agents.md', (_agent, version) => {
    expect(read('README.md')).toContain(version);
    expect(read('docs/agents.md')).toContain(version);
  });
});

/** GitHub's anchor for a heading: lowercase, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = fenced ? null : /^#{1,6} (.+)$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

describe('links in README.md and docs/', () => {
  const files = ['README.md', ...docFiles];
  const links = files.flatMap((file) => {
    const text = read(file).replace(/```[\s\S]*?```/g, '');
    return [...text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => [file, m[1]!] as const);
  });

  it('finds links to check', () => {
    expect(links.length).toBeGreaterThan(50);
  });

  it.each(links.filter(([, target]) => !/^[a-z]+:/.test(target)))('%s → %s resolves', (file, target) => {
    const [path = '', anchor] = target.split('#');
    const resolved = path === '' ? join(repo, file) : join(dirname(join(repo, file)), path);
    expect(existsSync(resolved), `${target} from ${file}`).toBe(true);
    if (anchor !== undefined && resolved.endsWith('.md')) {
      expect([...anchorsOf(readFileSync(resolved, 'utf8'))], `#${anchor} in ${relative(repo, resolved)}`).toContain(anchor);
    }
  });
});
