// The real claude in a git worktree fleetcom made: one turn, exit, save; the tmux server
// killed and the worktree deleted by hand; `load` makes the worktree again at the same path and
// claude resumes its conversation from there (claude files conversations by directory: from
// any other directory it would answer "No conversation found").
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientsOf } from './helpers/clients.js';
import { paneText, submit } from './helpers/drive.js';
import { roundTrip } from './helpers/round-trip.js';
import { useClientWorld } from './helpers/world.js';
import { startMockApi, type MockApi } from './mock-api.js';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(() => api?.close());

describe.each(clientsOf('claude').slice(0, 1))('$agent $version in a worktree', (client) => {
  it('resumes its conversation from the worktree load made again at the same path', async () => {
    const w = await useClientWorld(client, api);
    const git = (...args: string[]) => execFileSync('git', ['-C', w.project, ...args], { env: w.sb.env, encoding: 'utf8' });
    await writeFile(join(w.sb.home, '.gitconfig'), '[user]\n\tname = Test\n\temail = test@example.com\n');
    await writeFile(join(w.project, 'README'), 'project\n');
    git('add', 'README');
    git('commit', '-q', '-m', 'init');
    const path = join(w.sb.dir, 'project.worktrees', 'feat');
    // The worktree is a project of its own to claude: trusted like the project (world.ts).
    const config = `${JSON.stringify({ hasCompletedOnboarding: true, projects: { [w.project]: { hasTrustDialogAccepted: true }, [path]: { hasTrustDialogAccepted: true } } }, null, 2)}\n`;
    await writeFile(join(w.sb.home, '.claude.json'), config);
    await writeFile(join(w.sb.env.CLAUDE_CONFIG_DIR!, '.claude.json'), config);

    const { exited, resumed, fresh } = await roundTrip(w, 'claude', {
      ready: '? for shortcuts',
      exit: (world, task) => submit(world.sb, task.paneId, '/exit'),
      requestHas: (body, text) => JSON.stringify(body).includes(text),
      run: { args: ['--cwd', w.project, '--worktree', 'feat'], cwd: path },
      beforeLoad: async () => {
        await rm(path, { recursive: true, force: true });
      },
    });
    expect(exited.worktree).toMatchObject({ path, branch: 'feat' });
    expect(existsSync(path)).toBe(true);
    expect(resumed).toMatchObject({ cwd: path, conversationId: exited.conversationId, worktree: { path, branch: 'feat' } });
    expect(await paneText(w.sb, resumed.paneId)).not.toContain('No conversation found');
    await fresh.cli('down');
  });
});
