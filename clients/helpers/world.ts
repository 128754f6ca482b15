// One private world for a real-client test: the integration kit's sandbox (private tmux server,
// temp HOME), seeded as real-clients.md says, with the REAL clients first on PATH (never the
// fakes), both pointed at the mock API, and a fleet (`fleetcom up --headless`) running in it.
//
//   const api = await startMockApi();                   // once per file
//   const w = await useClientWorld(client, api);        // per test, cleaned up after it
//   it.concurrent('…', async (t) => { const w = await useClientWorld(client, api, { test: t }); })
//   const id = await w.fleet.run('claude');
import { execFileSync } from 'node:child_process';
import { chmod, copyFile, mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { startFleet, type Fleet } from '../../integration/helpers/fleet.js';
import { createSandbox, type Sandbox } from '../../integration/helpers/sandbox.js';
import { MOCK_MODEL, type MockApi } from '../mock-api.js';
import { claudeSeedConfig, codexMockToml, mockClientEnv } from './seed-config.js';
import { onTestFinished, type TestContext } from 'vitest';
import { stopBackground } from './background.js';
import type { InstalledClient } from './clients.js';

export interface ClientWorld {
  /** The real client this world runs (first on PATH, on its own Node). */
  client: InstalledClient;
  sb: Sandbox;
  fleet: Fleet;
  /** The project the agents run in: a git repository, trusted by both clients. */
  project: string;
  api: MockApi;
  /** With `userNotifier`: the user's notify program in config.toml and the log it appends to. */
  userNotifier?: { program: string; log: string };
}

export interface WorldOptions {
  /** Give codex's config.toml a user `notify` program (see writeUserNotifier). */
  userNotifier?: boolean;
  /**
   * The test's own context, for a test that runs concurrently with others of its file: vitest
   * ties the global onTestFinished to no test then, so the cleanup registers on the context.
   */
  test?: Pick<TestContext, 'onTestFinished'>;
}

export async function useClientWorld(client: InstalledClient, api: MockApi, opts: WorldOptions = {}): Promise<ClientWorld> {
  const finished = opts.test?.onTestFinished ?? onTestFinished;
  const sb = await createSandbox();
  finished(() => sb.cleanup());
  // The sandbox's env object is the one its tmux runner and the fleet use: change it in place.
  // fleetcom itself runs on this Node (its paths are absolute); the client on the Node it needs.
  Object.assign(sb.env, {
    PATH: [client.binDir, dirname(client.nodeBin), dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    ...mockClientEnv(api.url),
  });
  delete sb.env.FAKE_AGENT_LOG;
  const project = await sb.mkdir('project');
  execFileSync('git', ['init', '-q', project], { env: sb.env });
  await seedClaude(sb, project);
  let userNotifier: ClientWorld['userNotifier'];
  if (opts.userNotifier) {
    const log = join(sb.dir, 'user-notify.log');
    userNotifier = { program: await writeUserNotifier(sb, log), log };
  }
  await seedCodex(sb, project, api, userNotifier ? [`notify = [${JSON.stringify(userNotifier.program)}]`] : []);
  if (client.agent === 'gemini') await seedGemini(sb);
  if (client.agent === 'opencode') await seedOpencode(sb, api, client);
  if (client.agent === 'pi') await seedPi(sb, api);
  if (client.agent === 'copilot') await seedCopilot(sb, api, client, project);
  if (client.agent === 'qwen') await seedQwen(sb, api);
  if (client.agent === 'kilo') await seedKilo(sb, api);
  const fleet = await startFleet(sb);
  const world = { client, sb, fleet, project, api, userNotifier };
  // Before the sandbox goes: claude's daemon and workers outlive the tmux server.
  if (client.agent === 'claude') finished(() => stopBackground(world));
  return world;
}

/** Onboarding done and the project trusted, in both places claude may read `.claude.json`. */
async function seedClaude(sb: Sandbox, project: string): Promise<void> {
  const config = claudeSeedConfig(project);
  const configDir = sb.env.CLAUDE_CONFIG_DIR ?? join(sb.home, '.claude');
  await mkdir(configDir, { recursive: true });
  await writeFile(join(sb.home, '.claude.json'), config);
  await writeFile(join(configDir, '.claude.json'), config);
}

/** The mock provider (which also skips codex's login screen) and trust for the project. */
async function seedCodex(sb: Sandbox, project: string, api: MockApi, topLevel: string[]): Promise<void> {
  const codexHome = sb.env.CODEX_HOME ?? join(sb.home, '.codex');
  await mkdir(codexHome, { recursive: true });
  await writeFile(join(codexHome, 'config.toml'), codexMockToml(api.url, project, topLevel).join('\n'));
}


/** A user's own notify program: appends its one argument as a line to `log`. */
export async function writeUserNotifier(sb: Sandbox, log: string): Promise<string> {
  const path = join(sb.dir, 'user-notify.sh');
  await writeFile(path, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${log}'\n`);
  await chmod(path, 0o755);
  return path;
}

/** API-key auth (else exit 41) and no usage statistics (then it only talks to the mock). */
async function seedGemini(sb: Sandbox): Promise<void> {
  const dir = join(sb.env.GEMINI_CLI_HOME ?? sb.home, '.gemini');
  await mkdir(dir, { recursive: true });
  const settings = { security: { auth: { selectedType: 'gemini-api-key' } }, privacy: { usageStatisticsEnabled: false } };
  await writeFile(join(dir, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
}

/** The mock as an OpenAI-compatible provider, in the config of opencode and its forks. */
function mockProviderConfig(api: MockApi): Record<string, unknown> {
  return {
    model: `mock/${MOCK_MODEL}`,
    autoupdate: false,
    share: 'disabled',
    provider: { mock: { npm: '@ai-sdk/openai-compatible', name: 'fleetcom mock', options: { baseURL: `${api.url}/v1`, apiKey: 'x' }, models: { [MOCK_MODEL]: { name: MOCK_MODEL } } } },
  };
}

/**
 * The mock as an OpenAI-compatible provider in the user's own config, and opencode's plugin
 * package already in that config dir: opencode skips its `npm install @opencode-ai/plugin`
 * there when `node_modules` exists and `package-lock.json` lists the package (read from its
 * 1.18.33 binary), which offline would hold the start ~70 s. The cache folder the suite
 * installed opencode into holds both (manifest `with`).
 */
async function seedOpencode(sb: Sandbox, api: MockApi, client: InstalledClient): Promise<void> {
  const dir = join(sb.env.XDG_CONFIG_HOME ?? join(sb.home, '.config'), 'opencode');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'opencode.json'), `${JSON.stringify({ $schema: 'https://opencode.ai/config.json', ...mockProviderConfig(api) }, null, 2)}\n`);
  await symlink(join(client.dir, 'node_modules'), join(dir, 'node_modules'));
  await copyFile(join(client.dir, 'package-lock.json'), join(dir, 'package-lock.json'));
}

/**
 * The mock as pi's default provider (a custom provider in models.json, its own docs'
 * form), no startup network (PI_OFFLINE), no version check, no install telemetry; the startup
 * header is left out (quietStartup).
 */
async function seedPi(sb: Sandbox, api: MockApi): Promise<void> {
  const dir = sb.env.PI_CODING_AGENT_DIR ?? join(sb.home, '.pi', 'agent');
  await mkdir(dir, { recursive: true });
  const models = { providers: { mock: { baseUrl: `${api.url}/v1`, api: 'openai-completions', apiKey: 'fleetcom-mock-key', models: [{ id: MOCK_MODEL }] } } };
  await writeFile(join(dir, 'models.json'), `${JSON.stringify(models, null, 2)}\n`);
  await writeFile(join(dir, 'settings.json'), `${JSON.stringify({ defaultProvider: 'mock', defaultModel: MOCK_MODEL, quietStartup: true }, null, 2)}\n`);
  Object.assign(sb.env, { PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1', PI_TELEMETRY: '0' });
}

/**
 * copilot in BYOK mode against the mock (no GitHub login: `copilot help providers`), offline,
 * no auto-update; its 235 MB self-extraction shared by every world (COPILOT_PKG_CACHE_HOME in
 * the install folder, extracted once by install.mjs's `--version`). The project is trusted
 * the way copilot itself records "Yes, and remember this folder" (`trustedFolders` in
 * config.json, measured on 1.0.102): fleetcom never answers that question for the user.
 */
async function seedCopilot(sb: Sandbox, api: MockApi, client: InstalledClient, project: string): Promise<void> {
  const dir = sb.env.COPILOT_HOME ?? join(sb.home, '.copilot');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'config.json'), `${JSON.stringify({ trustedFolders: [project] }, null, 2)}\n`);
  Object.assign(sb.env, {
    COPILOT_OFFLINE: 'true',
    COPILOT_AUTO_UPDATE: 'false',
    COPILOT_PROVIDER_BASE_URL: `${api.url}/v1`,
    COPILOT_PROVIDER_API_KEY: 'fleetcom-mock-key',
    COPILOT_MODEL: MOCK_MODEL,
    COPILOT_PKG_CACHE_HOME: join(client.dir, 'copilot-pkg'),
  });
}

/**
 * qwen: the mock as its OpenAI provider (API-key auth, no login), and everything that would
 * call the mock besides the turn, or the network, off: usage statistics, the update check,
 * follow-up suggestions (each a request, and shown in the input box instead of the placeholder
 * the suite waits for) and the background memory extraction (a request after every turn).
 */
async function seedQwen(sb: Sandbox, api: MockApi): Promise<void> {
  Object.assign(sb.env, { OPENAI_BASE_URL: `${api.url}/v1`, OPENAI_API_KEY: 'fleetcom-mock-key', OPENAI_MODEL: MOCK_MODEL });
  const dir = sb.env.QWEN_HOME ?? join(sb.home, '.qwen');
  await mkdir(dir, { recursive: true });
  const settings = {
    security: { auth: { selectedType: 'openai' } },
    privacy: { usageStatisticsEnabled: false },
    general: { enableAutoUpdate: false, disableUpdateNag: true },
    ui: { enableFollowupSuggestions: false },
    memory: { enableManagedAutoMemory: false },
  };
  await writeFile(join(dir, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
}

/**
 * Kilo: the mock as an OpenAI-compatible provider in the user's own config (as opencode's),
 * and its model list, update check and LSP downloads off. Unlike opencode 1.18.33 it installs
 * no plugin package into the config dir at start (measured on 7.7.7). Snapshots off: on a
 * loaded machine the first turn's snapshot of the project took long enough for Kilo to stop
 * and ask (`Snapshot is slow … disable Snapshots for this repository?`), and the turn waited.
 */
async function seedKilo(sb: Sandbox, api: MockApi): Promise<void> {
  Object.assign(sb.env, { KILO_DISABLE_MODELS_FETCH: '1', KILO_DISABLE_AUTOUPDATE: '1', KILO_DISABLE_LSP_DOWNLOAD: '1', KILO_TELEMETRY_LEVEL: 'off' });
  const dir = join(sb.env.XDG_CONFIG_HOME ?? join(sb.home, '.config'), 'kilo');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'kilo.json'), `${JSON.stringify({ ...mockProviderConfig(api), snapshot: false }, null, 2)}\n`);
}
