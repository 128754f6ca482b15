// The real claude (each of clients/manifest.json) holding a conversation in a window
// fleetcom did not start: its session registry names it, so `doctor` reports it open there and
// `load` of a recipe naming it starts everything else but not a second writer.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor, waitTask } from './helpers/poll.js';
import { clientsOf } from './helpers/clients.js';
import { REPLY_MS, START_MS, submit, waitExited, waitForText, waitReady } from './helpers/drive.js';
import { useClientWorld } from './helpers/world.js';
import { REPLY_MARK, startMockApi, type MockApi } from './mock-api.js';


let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(() => api?.close());

interface RegistryRecord {
  pid: number;
  sessionId: string;
  procStart?: unknown;
  cwd?: string;
}

function registryRecords(home: string): RegistryRecord[] {
  const dir = join(home, 'sessions');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((n) => /^\d+\.json$/.test(n)).flatMap((n) => {
    try {
      return [JSON.parse(readFileSync(join(dir, n), 'utf8')) as RegistryRecord];
    } catch {
      return []; // being rewritten: the next poll reads it whole
    }
  });
}

describe.concurrent.each(clientsOf('claude'))('$agent $version (Node $node): a conversation open in another window', (client) => {
  it('is named by doctor (pid, terminal, pane) and skipped by load, which starts the rest', async (t) => {
    const w = await useClientWorld(client, api, { test: t });
    const home = w.sb.env.CLAUDE_CONFIG_DIR!;

    // A conversation with a message, ended: fleetcom knows its id from the exit hint.
    const run = await w.fleet.cli('run', '--cwd', w.project, '--', 'claude');
    expect(run.exitCode, run.stderr).toBe(0);
    const task = await w.fleet.task(run.stdout.trim());
    await waitReady(w.sb, task.paneId);
    await submit(w.sb, task.paneId, 'hello from fleetcom');
    await waitForText(w.sb, task.paneId, REPLY_MARK, REPLY_MS);
    await submit(w.sb, task.paneId, '/exit');
    const exited = await waitExited(w.sb, w.fleet, task);
    const id = exited.conversationId!;
    expect(exited.idSource).toBe('exit-hint');

    // The user resumes it by hand in a window of its own.
    const pane = (await w.sb.tmux('new-session', '-d', '-P', '-F', '#{pane_id}', '-s', 'by-hand', '-c', w.project, `claude --resume ${id}`)).trim();
    await waitReady(w.sb, pane);
    const record = await waitFor(() => registryRecords(home).find((r) => r.sessionId === id) ?? false, { what: `claude's registry record for ${id}`, timeout: START_MS });
    expect(record.procStart, 'the registry record carries the process start time fleetcom compares').toMatch(/^\d+$/);

    const recipe = join(w.sb.dir, 'again.json');
    await writeFile(recipe, JSON.stringify({ version: 1, name: 'again', dirs: { [w.project]: [`claude --resume '${id}'`, 'sleep 600'] } }));

    const doctor = await w.fleet.cli('doctor', recipe);
    expect(doctor.exitCode, doctor.stdout).toBe(1);
    expect(doctor.stdout).toContain(`open in pid ${record.pid} on /dev/pts/`);
    expect(doctor.stdout).toContain(`(tmux pane ${pane})`);

    const loaded = await w.fleet.cli('load', recipe);
    expect(loaded.exitCode, loaded.stderr).toBe(0);
    expect(loaded.stderr).toContain(`skipped: ${w.project}: claude --resume '${id}': conversation ${id} is open in pid ${record.pid}`);
    expect(loaded.stderr).toContain("loaded 'again': 1 task(s)");
    expect((await w.fleet.ls()).map((t) => t.command)).toEqual(['claude', 'sleep 600']);

    // Closed there, it loads: claude deleted its record at exit.
    await submit(w.sb, pane, '/exit');
    await waitFor(() => !registryRecords(home).some((r) => r.sessionId === id), { what: 'the record removed at exit', timeout: START_MS });
    const later = await w.fleet.cli('load', recipe);
    expect(later.stderr).not.toContain('skipped:');
    const resumed = await waitTask(w.fleet, 3, (t) => t.command === `claude --resume '${id}'`, 'the resumed task');
    await waitReady(w.sb, resumed.paneId);
  });
});
