// One private world for a real-client test: the integration kit's sandbox (private tmux server,
// temp HOME), seeded as real-clients.md says, with the REAL clients first on PATH (never the
// fakes), both pointed at the mock API, and a fleet (`fleetcom up --headless`) running in it.
//
//   const api = await startMockApi();                   // once per file
//   const w = await useClientWorld(client, api);        // per test, cleaned up after it
//   const id = await w.fleet.run('claude');
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { startFleet, type Fleet } from '../../integration/helpers/fleet.js';
import { useSandbox, type Sandbox } from '../../integration/helpers/sandbox.js';
import { MOCK_MODEL, type MockApi } from '../mock-api.js';
import { onTestFinished } from 'vitest';
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
}

export async function useClientWorld(client: InstalledClient, api: MockApi, opts: WorldOptions = {}): Promise<ClientWorld> {
  const sb = await useSandbox();
  // The sandbox's env object is the one its tmux runner and the fleet use: change it in place.
  // fleetcom itself runs on this Node (its paths are absolute); the client on the Node it needs.
  Object.assign(sb.env, {
    PATH: [client.binDir, dirname(client.nodeBin), dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    // claude reads these two (ANTHROPIC_API_KEY would raise an approval dialog instead).
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_AUTH_TOKEN: 'fleetcom-mock-token',
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
  const fleet = await startFleet(sb);
  const world = { client, sb, fleet, project, api, userNotifier };
  // Before the sandbox goes: claude's daemon and workers outlive the tmux server.
  if (client.agent === 'claude') onTestFinished(() => stopBackground(world));
  return world;
}

/** Onboarding done and the project trusted, in both places claude may read `.claude.json`. */
async function seedClaude(sb: Sandbox, project: string): Promise<void> {
  const config = `${JSON.stringify({ hasCompletedOnboarding: true, projects: { [project]: { hasTrustDialogAccepted: true } } }, null, 2)}\n`;
  const configDir = sb.env.CLAUDE_CONFIG_DIR ?? join(sb.home, '.claude');
  await mkdir(configDir, { recursive: true });
  await writeFile(join(sb.home, '.claude.json'), config);
  await writeFile(join(configDir, '.claude.json'), config);
}

/** The mock provider (which also skips codex's login screen) and trust for the project. */
async function seedCodex(sb: Sandbox, project: string, api: MockApi, topLevel: string[]): Promise<void> {
  const codexHome = sb.env.CODEX_HOME ?? join(sb.home, '.codex');
  await mkdir(codexHome, { recursive: true });
  const toml = [
    ...topLevel,
    `model = "${MOCK_MODEL}"`,
    'model_provider = "mock"',
    '',
    '[model_providers.mock]',
    'name = "fleetcom mock"',
    `base_url = "${api.url}/v1"`,
    'wire_api = "responses"',
    '',
    `[projects.${JSON.stringify(project)}]`,
    'trust_level = "trusted"',
    '',
  ].join('\n');
  await writeFile(join(codexHome, 'config.toml'), toml);
}

/** A user's own notify program: appends its one argument as a line to `log`. */
export async function writeUserNotifier(sb: Sandbox, log: string): Promise<string> {
  const path = join(sb.dir, 'user-notify.sh');
  await writeFile(path, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${log}'\n`);
  await chmod(path, 0o755);
  return path;
}
