// The chaos checker fed deliberately broken histories: each must be caught, and a sound one
// must pass — a checker that cannot fail would make every chaos run green.
import { describe, expect, it } from 'vitest';
import { check, parseTruth, recipeEntries, resumeOf, strictId, type Observation, type TruthRecord } from '../../chaos/checker.mjs';

const HOME = '/h';
const A = '/h/work/s0-claude';
const B = '/h/work/s1-claude';
const C = '/h/work/s2-codex';
const A1 = '11111111-1111-4111-8111-111111111111';
const A2 = '22222222-2222-4222-8222-222222222222';
const B1 = '33333333-3333-4333-8333-333333333333';
const C1 = '019f5453-de22-7240-b2e5-0d32692aa6d9';
const SUB = '019f5453-de22-7240-b2e5-0d32692aa6da';

let t = 0;
const rec = (pid: number, cwd: string, event: TruthRecord['event'], id: string | null, agent = 'claude', more: Partial<TruthRecord> = {}): TruthRecord => ({
  t: ++t, pid, agent, event, id, cwd, ...more,
});

/** Two claudes (A talked, /cleared, talked again; B talked) and a codex that delegated. */
const TRUTH: TruthRecord[] = [
  rec(100, A, 'enter', A1),
  rec(100, A, 'spoke', A1),
  rec(200, B, 'enter', B1),
  rec(200, B, 'spoke', B1),
  rec(100, A, 'enter', A2),
  rec(100, A, 'spoke', A2),
  rec(300, C, 'enter', C1, 'codex'),
  rec(300, C, 'spoke', C1, 'codex'),
  rec(300, C, 'subagent', SUB, 'codex', { parent: C1 }),
];

function task(id: number, cwd: string, conversationId: string | null, harness = 'claude', more: Record<string, unknown> = {}) {
  return { id, cwd, conversationId, harness, command: harness, state: 'running', windowId: `@${id}`, paneId: `%${id}`, ...more };
}

const recipe = (dirs: Record<string, readonly unknown[]>) => JSON.stringify({ version: 1, name: 'x', dirs });

function sound(): Observation {
  return {
    truth: TRUTH,
    alive: [100, 200, 300],
    ls: [task(1, A, A2), task(2, B, B1), task(3, C, C1, 'codex')],
    home: HOME,
    files: [
      {
        file: '/h/s/work.json',
        kind: 'recipe',
        fresh: true,
        expectedEntries: 3,
        text: recipe({ '~/work/s0-claude': [`claude --resume '${A2}'`], '~/work/s1-claude': [`claude --resume '${B1}'`], '~/work/s2-codex': [`codex resume '${C1}'`] }),
      },
    ],
    supervisors: [{ pid: 9 }],
    commands: [{ argv: ['ls'], ms: 300, deadlineMs: 20_000, timedOut: false }],
    windows: [
      { windowId: '@1', paneId: '%1', agent: 'claude' },
      { windowId: '@2', paneId: '%2', agent: 'claude' },
    ],
  };
}

const invariants = (obs: Observation) => check(obs).map((v) => v.invariant);

describe('the chaos checker', () => {
  it('passes a sound observation', () => {
    expect(check(sound())).toEqual([]);
  });

  it('catches a task naming a sibling\'s conversation', () => {
    const obs = { ...sound(), ls: [task(1, A, B1), task(2, B, B1)] };
    const found = check(obs);
    expect(found.map((v) => v.invariant)).toContain('no foreign conversation');
    expect(found.find((v) => v.invariant === 'no foreign conversation')?.evidence).toContain(`names ${B1}, the conversation of the agent in ${B}`);
  });

  it('catches a task naming a subagent thread', () => {
    expect(invariants({ ...sound(), ls: [task(3, C, SUB, 'codex')], windows: [] })).toEqual(['no foreign conversation']);
  });

  it('catches a task that kept the conversation from before its /clear (settle: it may still be catching up)', () => {
    const found = check({ ...sound(), ls: [task(1, A, A1)], windows: [] });
    expect(found).toEqual([expect.objectContaining({ invariant: 'tasks follow their agent', kind: 'settle' })]);
  });

  it('allows the conversation before a /clear while the new one holds no message', () => {
    const truth = [...TRUTH.slice(0, 4), rec(100, A, 'enter', A2)];
    expect(check({ ...sound(), truth, ls: [task(1, A, A1)], files: [], windows: [] })).toEqual([]);
  });

  it('catches a saved recipe resuming an older conversation, a sibling\'s, or a subagent\'s', () => {
    for (const [dirs, words] of [
      [{ '~/work/s0-claude': [`claude --resume '${A1}'`] }, `that agent was last in ${A2}`],
      [{ '~/work/s0-claude': [`claude --resume '${B1}'`] }, `the conversation of the agent in ${B}`],
      [{ '~/work/s2-codex': [`codex resume '${SUB}'`] }, 'a subagent thread'],
    ] as const) {
      const obs = { ...sound(), files: [{ file: '/h/s/x.json', kind: 'recipe' as const, fresh: true, text: recipe(dirs) }] };
      const found = check(obs);
      expect(found.map((v) => v.invariant)).toEqual(['resumes name the last conversation']);
      expect(found[0]?.evidence).toContain(words);
    }
  });

  it('lets an old recipe keep an old conversation of the same agent (the agent moved on since)', () => {
    const old = { file: '/h/s/old.json', kind: 'recipe' as const, text: recipe({ '~/work/s0-claude': [`claude --resume '${A1}'`] }) };
    expect(check({ ...sound(), files: [old] })).toEqual([]);
  });

  it('catches a torn recipe, a torn snapshot and a silently emptied one', () => {
    const torn = { file: '/h/s/t.json', kind: 'recipe' as const, text: recipe({ '~/work/s0-claude': [`claude --resume '${A2}'`] }).slice(0, 40) };
    const tornSnapshot = { file: '/h/s/recovery/1.json', kind: 'snapshot' as const, text: '{"version":1,"dirs":{"/x":"claude"}}' };
    const emptied = { file: '/h/s/e.json', kind: 'recipe' as const, fresh: true, expectedEntries: 3, text: recipe({}) };
    const found = check({ ...sound(), files: [torn, tornSnapshot, emptied] });
    expect(found.map((v) => v.invariant)).toEqual(['no torn recipe or snapshot', 'no torn recipe or snapshot', 'no torn recipe or snapshot']);
    expect(found[2]?.evidence).toContain('holds 0 entries; the fleet had 3 tasks');
  });

  it('catches two supervisors for one fleet', () => {
    const found = check({ ...sound(), supervisors: [{ pid: 9 }, { pid: 10 }] });
    expect(found).toEqual([{ invariant: 'one supervisor per fleet', kind: 'settle', evidence: '2 supervisors run for one fleet: pids 9, 10' }]);
  });

  it('catches a command past its deadline', () => {
    expect(invariants({ ...sound(), commands: [{ argv: ['save', 'x'], ms: 31_000, deadlineMs: 30_000, timedOut: true }] })).toEqual(['commands keep their deadline']);
  });

  it('catches a window running an agent that is no task and was not reported', () => {
    const windows = [...sound().windows!, { windowId: '@7', paneId: '%7', agent: 'codex' }];
    expect(invariants({ ...sound(), windows })).toEqual(['no task lost']);
    expect(check({ ...sound(), windows, reported: ['@7'] })).toEqual([]);
  });

  it('catches an id that fails the strict check, in ls and in a recipe', () => {
    const bad = 'C8C4A5CC-0B32-4BA0-A6B4-6ED08C218E0D';
    expect(invariants({ ...sound(), ls: [task(1, A, bad)], files: [], windows: [] })).toEqual(['strict ids']);
    const file = { file: '/h/s/x.json', kind: 'recipe' as const, text: recipe({ '~/work/s0-claude': ["claude --resume 'x;rm'"] }) };
    expect(invariants({ ...sound(), files: [file] })).toEqual(['strict ids']);
  });

  it('catches two agents in one conversation, and two live processes in it', () => {
    const crossed = [...TRUTH, rec(400, B, 'enter', A2)];
    expect(invariants({ ...sound(), truth: crossed, alive: [100, 200, 300] })).toEqual(['no foreign conversation']);
    const twice = [...TRUTH, rec(101, A, 'enter', A2)];
    expect(invariants({ ...sound(), truth: twice, alive: [100, 101, 200, 300] })).toEqual(['one process per conversation']);
  });

  it('reads resume commands of every agent and the strict ids', () => {
    expect(resumeOf(`claude --resume '${A1}'`)).toEqual({ agent: 'claude', id: A1 });
    expect(resumeOf(`codex resume '${C1}'`)).toEqual({ agent: 'codex', id: C1 });
    expect(resumeOf("opencode -s 'ses_dccbe66c4ffeR0KvdX3rqoJ33Q'")).toEqual({ agent: 'opencode', id: 'ses_dccbe66c4ffeR0KvdX3rqoJ33Q' });
    expect(resumeOf(`qwen --resume '${A1}'`)).toEqual({ agent: 'qwen', id: A1 });
    expect(resumeOf(`copilot --resume '${A1}'`)).toEqual({ agent: 'copilot', id: A1 });
    expect(resumeOf(`pi --session '${A1}'`)).toEqual({ agent: 'pi', id: A1 });
    expect(resumeOf("kilo -s 'ses_dccbe66c4ffeR0KvdX3rqoJ33Q'")).toEqual({ agent: 'kilo', id: 'ses_dccbe66c4ffeR0KvdX3rqoJ33Q' });
    expect(resumeOf('pi')).toEqual({ agent: 'pi', id: null });
    expect(resumeOf('gemini')).toEqual({ agent: 'gemini', id: null });
    expect(resumeOf('sleep 600')).toEqual({ agent: null, id: null });
    expect(strictId('opencode', 'ses_dccbe66c4ffeR0KvdX3rqoJ33Q')).toBe(true);
    expect(strictId('claude', 'ses_dccbe66c4ffeR0KvdX3rqoJ33Q')).toBe(false);
    expect(strictId('kilo', 'ses_dccbe66c4ffeR0KvdX3rqoJ33Q')).toBe(true);
    expect(strictId('pi', A1)).toBe(true);
    expect(recipeEntries(recipe({ '~': [{ cmd: 'grok', group: null, name: 'g' }] }), HOME)).toEqual({ entries: [{ dir: HOME, cmd: 'grok' }], closed: false });
    expect(parseTruth(`${JSON.stringify(TRUTH[0])}\n{"pid":1,"ev`)).toEqual([TRUTH[0]]);
  });
});

describe('the chaos checker with two agents in one directory (a load beside an exited task)', () => {
  const D = '/h/work/s3-claude';
  const X = '44444444-4444-4444-8444-444444444444';
  const Y = '55555555-5555-4555-8555-555555555555';
  const truth = [rec(500, D, 'enter', X), rec(500, D, 'spoke', X), rec(600, D, 'enter', Y), rec(600, D, 'spoke', Y)];
  const base: Observation = {
    truth,
    alive: [600],
    ls: [task(1, D, X, 'claude', { state: 'exited' }), task(2, D, Y)],
    panes: [{ pid: 500, paneId: '%1' }, { pid: 600, paneId: '%2' }],
    home: HOME,
    files: [],
  };

  it('holds each task to the processes of its own pane', () => {
    expect(check(base)).toEqual([]);
    expect(invariants({ ...base, ls: [task(1, D, Y, 'claude', { state: 'exited' }), task(2, D, Y)] })).toEqual(['tasks follow their agent']);
  });

  it('lets a recipe resume either task\'s own conversation', () => {
    const file = { file: '/h/s/x.json', kind: 'recipe' as const, fresh: true, text: recipe({ '~/work/s3-claude': [`claude --resume '${X}'`, `claude --resume '${Y}'`] }) };
    expect(check({ ...base, files: [file] })).toEqual([]);
  });
});
