// A lab for measuring how a real client takes typed and pasted input: one client in a tmux pane
// on a private socket, pointed at the mock API, with probe hooks that log every prompt-accepted
// and turn-end event (with the time it ran) — not fleetcom's hooks, so that each payload is seen
// whole. Run inside a private network namespace only (the clients try the network on their own):
//
//   npx esbuild clients/probes/lab.ts --bundle --platform=node --format=esm --outfile=/tmp/lab.mjs
//   unshare -n sh -c 'ip link set lo up && exec node /tmp/lab.mjs <agent>[@version] <lab dir> <clients.json> [client args…]' &
//
// <clients.json> is what clients/install.mjs prints. The lab writes <lab dir>/info.json (pane,
// mock URL, pid) once the pane runs, logs the mock's requests to requests.jsonl and replies to
// replies.jsonl, and the probe hooks to hooks.jsonl ({t, ev, p}); `pipe-pane` keeps the pane's raw
// output in raw.log (to see `ESC[?2004h`). SIGUSR1 answers the held turns (`fleetcom-mock-hold`);
// SIGTERM kills its tmux server and every process that carries its HOME, by pid, and exits.
// Driven from outside through the socket by send-probe.ts: a unix socket crosses namespaces.
import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, mkdirSync, readdirSync, readFileSync, symlinkSync, copyFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { makeSandboxDirs, sandboxEnv } from '../../integration/helpers/sandbox-env.mjs';
import { MOCK_MODEL, startMockApi, type MockApi } from '../mock-api.js';
import type { InstalledClient } from '../cache.mjs';
import { claudeSeedConfig, codexMockToml, mockClientEnv } from '../helpers/seed-config.js';

const [which, labDir, clientsFile, ...extraArgs] = process.argv.slice(2);
if (!which || !labDir || !clientsFile) {
  process.stderr.write('usage: lab.mjs <agent>[@version] <lab dir> <clients.json> [client args…]\n');
  process.exit(2);
}
const [agent, version] = which.split('@');
const clients = JSON.parse(readFileSync(clientsFile, 'utf8')) as InstalledClient[];
const client = clients.find((c) => c.agent === agent && (!version || c.version === version));
if (!client) throw new Error(`no installed client ${which} in ${clientsFile}`);

mkdirSync(labDir, { recursive: true });
makeSandboxDirs(labDir);
const env = sandboxEnv(labDir, client.binDir);
env.PATH = [client.binDir, dirname(client.nodeBin), '/usr/local/bin', '/usr/bin', '/bin'].join(':');
const home = env.HOME!;
const project = join(labDir, 'project');
mkdirSync(project, { recursive: true });
execFileSync('git', ['init', '-q', project], { env });
const socket = join(labDir, 'tmux.sock');
const hooksLog = join(labDir, 'hooks.jsonl');
writeFileSync(hooksLog, '');

const api = await startMockApi();
Object.assign(env, mockClientEnv(api.url));

/** A hook command: `sh <lab>/hook.sh <event>` appends {t, ev, p: the payload} to hooks.jsonl, prints nothing. */
const hookScript = join(labDir, 'hook.sh');
writeFileSync(hookScript, [
  '#!/bin/sh',
  `t=$(date +%s%3N); p=$(cat | tr -d '\\n'); [ -n "$p" ] || p=null`,
  `printf '{"t":%s,"ev":"%s","p":%s}\\n' "$t" "$1" "$p" >> '${hooksLog}'`,
  'exit 0',
  '',
].join('\n'));
chmodSync(hookScript, 0o755);
const hook = (ev: string) => `sh ${hookScript} ${ev}`;
/** codex's notify: the payload is its one argument. */
const notifyScript = join(labDir, 'notify.sh');
writeFileSync(notifyScript, `#!/bin/sh\nt=$(date +%s%3N); printf '{"t":%s,"ev":"notify","p":%s}\\n' "$t" "$1" >> '${hooksLog}'\n`);
chmodSync(notifyScript, 0o755);

/** A JS probe (opencode/kilo plugin, pi extension) appends the same lines itself. */
const appendJs = `import { appendFileSync } from 'node:fs';
const log = (ev, p) => { try { appendFileSync(${JSON.stringify(hooksLog)}, JSON.stringify({ t: Date.now(), ev, p }) + '\\n'); } catch {} };
const short = (s) => typeof s === 'string' ? { len: s.length, head: s.slice(0, 200), tail: s.slice(-80) } : s;`;

const claudeHooks = (events: string[]) => Object.fromEntries(events.map((e) => [e, [{ hooks: [{ type: 'command', command: hook(e) }] }]]));
let args: string[] = [];

switch (client.agent) {
  case 'claude': {
    const config = claudeSeedConfig(project);
    mkdirSync(env.CLAUDE_CONFIG_DIR!, { recursive: true });
    writeFileSync(join(home, '.claude.json'), config);
    writeFileSync(join(env.CLAUDE_CONFIG_DIR!, '.claude.json'), config);
    const settings = join(labDir, 'claude-settings.json');
    writeFileSync(settings, JSON.stringify({ hooks: claudeHooks(['SessionStart', 'UserPromptSubmit', 'Stop', 'Notification']) }, null, 2));
    args = ['--settings', settings];
    break;
  }
  case 'codex': {
    mkdirSync(env.CODEX_HOME!, { recursive: true });
    writeFileSync(join(env.CODEX_HOME!, 'config.toml'), [
      ...codexMockToml(api.url, project, [`notify = ["sh", ${JSON.stringify(notifyScript)}]`]),
      ...['UserPromptSubmit', 'Stop'].flatMap((e) => [`[[hooks.${e}]]`, `[[hooks.${e}.hooks]]`, 'type = "command"', `command = ${JSON.stringify(hook(e))}`, '']),
    ].join('\n'));
    break;
  }
  case 'gemini': {
    const dir = join(home, '.gemini');
    mkdirSync(join(dir, 'extensions', 'send-probe', 'hooks'), { recursive: true });
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } }, privacy: { usageStatisticsEnabled: false } }, null, 2));
    writeFileSync(join(dir, 'extensions', 'send-probe', 'gemini-extension.json'), JSON.stringify({ name: 'send-probe', version: '0.0.1' }));
    writeFileSync(join(dir, 'extensions', 'send-probe', 'hooks', 'hooks.json'), JSON.stringify({ hooks: claudeHooks(['SessionStart', 'BeforeAgent', 'AfterAgent']) }, null, 2));
    break;
  }
  case 'opencode':
  case 'kilo': {
    const provider = {
      model: `mock/${MOCK_MODEL}`, autoupdate: false, share: 'disabled',
      provider: { mock: { npm: '@ai-sdk/openai-compatible', name: 'fleetcom mock', options: { baseURL: `${api.url}/v1`, apiKey: 'x' }, models: { [MOCK_MODEL]: { name: MOCK_MODEL } } } },
    };
    const dir = join(env.XDG_CONFIG_HOME!, client.agent);
    mkdirSync(dir, { recursive: true });
    if (client.agent === 'opencode') {
      writeFileSync(join(dir, 'opencode.json'), JSON.stringify({ $schema: 'https://opencode.ai/config.json', ...provider }, null, 2));
      symlinkSync(join(client.dir, 'node_modules'), join(dir, 'node_modules'));
      copyFileSync(join(client.dir, 'package-lock.json'), join(dir, 'package-lock.json'));
    } else {
      Object.assign(env, { KILO_DISABLE_MODELS_FETCH: '1', KILO_DISABLE_AUTOUPDATE: '1', KILO_DISABLE_LSP_DOWNLOAD: '1', KILO_TELEMETRY_LEVEL: 'off' });
      writeFileSync(join(dir, 'kilo.json'), JSON.stringify({ ...provider, snapshot: false }, null, 2));
    }
    const plugin = join(labDir, 'probe-plugin.js');
    writeFileSync(plugin, `${appendJs}
const SKIP = new Set(['plugin.added', 'catalog.updated', 'lsp.client.diagnostics', 'file.watcher.updated']);
export const SendProbe = async () => ({
  event: async ({ event }) => {
    if (!event || SKIP.has(event.type)) return;
    const p = event.properties || {};
    if (event.type === 'message.part.updated') log(event.type, { sessionID: p.part && p.part.sessionID, messageID: p.part && p.part.messageID, type: p.part && p.part.type, text: short(p.part && p.part.text) });
    else if (event.type === 'message.updated') log(event.type, { sessionID: p.info && p.info.sessionID, id: p.info && p.info.id, role: p.info && p.info.role });
    else if (event.type === 'message.part.delta') return;
    else log(event.type, JSON.stringify(p).length > 600 ? { big: JSON.stringify(p).slice(0, 600) } : p);
  },
  'chat.message': async (input, output) => {
    log('chat.message', { sessionID: input && input.sessionID, parts: ((output && output.parts) || []).map((x) => ({ type: x.type, text: short(x.text) })) });
  },
});
`);
    env[client.agent === 'opencode' ? 'OPENCODE_CONFIG_CONTENT' : 'KILO_CONFIG_CONTENT'] = JSON.stringify({ plugin: [`file://${plugin}`] });
    break;
  }
  case 'pi': {
    const dir = env.PI_CODING_AGENT_DIR!;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'models.json'), JSON.stringify({ providers: { mock: { baseUrl: `${api.url}/v1`, api: 'openai-completions', apiKey: 'fleetcom-mock-key', models: [{ id: MOCK_MODEL }] } } }, null, 2));
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ defaultProvider: 'mock', defaultModel: MOCK_MODEL, quietStartup: true }, null, 2));
    Object.assign(env, { PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1', PI_TELEMETRY: '0' });
    const ext = join(labDir, 'probe-extension.js');
    writeFileSync(ext, `${appendJs}
export default function probe(pi) {
  for (const type of ['session_start', 'input', 'before_agent_start', 'agent_start', 'turn_start', 'message_start', 'message_end', 'turn_end', 'agent_end', 'agent_settled', 'session_shutdown']) {
    pi.on(type, (event) => {
      const e = {};
      for (const [k, v] of Object.entries(event || {})) {
        if (k === 'messages') e.messages = Array.isArray(v) ? v.length : v;
        else if (k === 'message') e.message = { role: v && v.role, text: short(JSON.stringify(v && v.content)) };
        else e[k] = typeof v === 'string' ? short(v) : (JSON.stringify(v) || '').length > 300 ? '(big)' : v;
      }
      log(type, e);
    });
  }
}
`);
    args = ['-e', ext];
    break;
  }
  case 'copilot': {
    const dir = env.COPILOT_HOME!;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ trustedFolders: [project] }, null, 2));
    Object.assign(env, {
      COPILOT_OFFLINE: 'true', COPILOT_AUTO_UPDATE: 'false', COPILOT_PROVIDER_BASE_URL: `${api.url}/v1`,
      COPILOT_PROVIDER_API_KEY: 'fleetcom-mock-key', COPILOT_MODEL: MOCK_MODEL, COPILOT_PKG_CACHE_HOME: join(client.dir, 'copilot-pkg'),
    });
    const pluginDir = join(labDir, 'copilot-plugin');
    mkdirSync(pluginDir, { recursive: true });
    writeFileSync(join(pluginDir, 'plugin.json'), JSON.stringify({ name: 'send-probe', version: '0.0.1', description: 'send probe', hooks: 'hooks.json' }));
    const events = ['UserPromptSubmit', 'Stop', 'userPromptSubmitted', 'agentStop'];
    writeFileSync(join(pluginDir, 'hooks.json'), JSON.stringify({ version: 1, hooks: Object.fromEntries(events.map((e) => [e, [{ type: 'command', bash: hook(e) }]])) }, null, 2));
    args = ['--plugin-dir', pluginDir];
    break;
  }
  case 'qwen': {
    Object.assign(env, { OPENAI_BASE_URL: `${api.url}/v1`, OPENAI_API_KEY: 'fleetcom-mock-key', OPENAI_MODEL: MOCK_MODEL });
    const dir = env.QWEN_HOME!;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({
      security: { auth: { selectedType: 'openai' } },
      privacy: { usageStatisticsEnabled: false },
      general: { enableAutoUpdate: false, disableUpdateNag: true },
      ui: { enableFollowupSuggestions: false },
      memory: { enableManagedAutoMemory: false },
      hooks: claudeHooks(['SessionStart', 'UserPromptSubmit', 'Stop']),
    }, null, 2));
    // LAB_QWEN_DEFAULTS=1: a system-defaults overlay of the lab's own (QWEN_CODE_SYSTEM_DEFAULTS_PATH),
    // its hooks logged as `defaults:<event>`, to see whether and when hooks from it run.
    if (process.env.LAB_QWEN_DEFAULTS === '1') {
      const overlay = join(labDir, 'qwen-system-defaults.json');
      const events = ['SessionStart', 'UserPromptSubmit', 'Stop', 'StopFailure', 'Notification', 'PermissionRequest', 'PreToolUse', 'PostToolUse', 'SessionEnd'];
      writeFileSync(overlay, JSON.stringify({ hooks: Object.fromEntries(events.map((e) => [e, [{ hooks: [{ type: 'command', command: hook(`defaults:${e}`) }] }]])) }, null, 2));
      env.QWEN_CODE_SYSTEM_DEFAULTS_PATH = overlay;
    }
    break;
  }
}

// The mock's traffic, as lines a shell can tail.
const requestsLog = join(labDir, 'requests.jsonl');
const repliesLog = join(labDir, 'replies.jsonl');
let seenRequests = 0;
let seenReplies = 0;
const flush = (m: MockApi) => {
  for (; seenRequests < m.requests.length; seenRequests++) {
    const r = m.requests[seenRequests]!;
    const text = JSON.stringify(r.body ?? null);
    const hold = text.includes('fleetcom-mock-hold');
    appendFileSync(requestsLog, `${JSON.stringify({ i: seenRequests, at: r.at, method: r.method, path: r.path, bytes: text.length, hold })}\n`);
    writeFileSync(join(labDir, `request-${seenRequests}.json`), text);
  }
  for (; seenReplies < m.replies.length; seenReplies++) appendFileSync(repliesLog, `${JSON.stringify({ at: Date.now(), text: m.replies[seenReplies] })}\n`);
};
const timer = setInterval(() => flush(api), 50);

const command = [client.bin, ...args, ...extraArgs].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
const tmux = (...a: string[]) => execFileSync('tmux', ['-S', socket, '-f', '/dev/null', ...a], { env, encoding: 'utf8' }).trim();
const raw = join(labDir, 'raw.log');
tmux('new-session', '-d', '-s', 'lab', '-x', '160', '-y', '50', '-c', project, command, ';',
  'set-option', '-g', 'remain-on-exit', 'on', ';', 'set-option', '-g', 'history-limit', '20000', ';',
  'pipe-pane', '-o', '-t', 'lab', `cat >> '${raw}'`);
const pane = tmux('display-message', '-p', '-t', 'lab', '#{pane_id}');
writeFileSync(join(labDir, 'info.json'), JSON.stringify({ agent: client.agent, version: client.version, pane, socket, url: api.url, pid: process.pid, home, project, hooks: hooksLog }, null, 2));
process.stderr.write(`lab: ${client.agent} ${client.version} in ${pane} on ${socket}, mock ${api.url}\n`);

process.on('SIGUSR1', () => {
  api.releaseHeld();
  appendFileSync(repliesLog, `${JSON.stringify({ at: Date.now(), released: true })}\n`);
});
const stop = async () => {
  clearInterval(timer);
  try { tmux('kill-server'); } catch { /* already gone */ }
  // claude's daemon, codex's app-server: whatever carries this lab's HOME, by pid.
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`, 'utf8').split('\0').includes(`HOME=${home}`)) process.kill(Number(name), 'SIGKILL');
    } catch { /* gone, or not ours to read */ }
  }
  await api.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
