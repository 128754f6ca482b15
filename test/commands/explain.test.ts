import { describe, expect, it } from 'vitest';
import { agentHome, explainCommand } from '../../src/commands/tasks/explain.js';

// explain for the agents added after the first three: their forms, rewrite, homes and the
// versions the real-client suite proved.
const opts = { codexRoute: () => ({ kind: 'vacant' }) as const, newId: () => '7f3e2d1c-0b9a-4876-9543-210fedcba987' };
const SID = 'ses_dcd254f97ffeRjctlW5tG6xzJ7';

describe('explain', () => {
  it('shows a bare gemini pinned, and its resume command', () => {
    const e = explainCommand('gemini', { ...opts, id: '11111111-2222-4333-8444-555555555555' });
    expect(e).toMatchObject({ harness: 'gemini', form: 'bare', shell: "gemini --session-id '7f3e2d1c-0b9a-4876-9543-210fedcba987'", codexRoute: null });
    expect(e.resumeCommand).toBe("gemini --resume '11111111-2222-4333-8444-555555555555'");
  });

  it("shows opencode's plugin in the environment, its own id check, and both selectors", () => {
    const e = explainCommand('opencode', { ...opts, id: SID });
    expect(e).toMatchObject({ harness: 'opencode', form: 'bare', shell: 'opencode', resumeCommand: `opencode -s '${SID}'` });
    expect(JSON.parse(e.env.OPENCODE_CONFIG_CONTENT ?? '{}')).toEqual({ plugin: ['file://<namespace>/opencode-plugin.js'] });
    expect(explainCommand(`opencode --session ${SID}`, opts)).toMatchObject({ form: 'resume', targetId: SID });
    const bad = explainCommand('opencode', { ...opts, id: '11111111-2222-4333-8444-555555555555' });
    expect(bad.resumeCommand).toBe('opencode');
    expect(bad.note).toContain('opencode: ses_ followed by 26 letters and digits');
  });

  it('names the variable that keeps a home in a recipe, and none at the default', () => {
    expect(agentHome('opencode', { HOME: '/h' })).toEqual({ variable: 'XDG_DATA_HOME', path: '/h/.local/share/opencode/opencode.db', savedInRecipe: false });
    expect(agentHome('opencode', { HOME: '/h', OPENCODE_DB: '/x/o.db' })).toEqual({ variable: 'OPENCODE_DB', path: '/x/o.db', savedInRecipe: true });
    expect(agentHome('gemini', { HOME: '/h', GEMINI_CLI_HOME: '/g' })).toEqual({ variable: 'GEMINI_CLI_HOME', path: '/g', savedInRecipe: true });
    expect(agentHome('gemini', { HOME: '/h' })).toMatchObject({ savedInRecipe: false });
  });
});
