import { describe, expect, it } from 'vitest';
import {
  classifyNotifyValue,
  detect,
  instrument,
  type AgentDetection,
  type CodexRoute,
  type InstrumentPlan,
} from '../../src/harness/index.js';
import { CID, ID } from './fixtures.js';
import { argvThroughShell } from './shell.js';

// Contract section 4: only the shell string changes.

const NEW = '7f3e2d1c-0b9a-4876-9543-210fedcba987';
const NS = '/run/fleetcom/abc/123-0123456789ab';
const CAPTURE = `${NS}/task-3-1.json`;
const vacant: CodexRoute = { kind: 'vacant' };

function agent(command: string): AgentDetection {
  const detection = detect(command);
  if (detection.form === 'opaque') throw new Error(`opaque: ${command}`);
  return detection;
}

function plan(command: string, codexRoute: CodexRoute = vacant, namespace = NS): InstrumentPlan {
  return instrument({ detection: agent(command), namespace, captureFile: CAPTURE, newId: () => NEW, codexRoute, home: '/h/.agent', env: {} });
}

describe('instrumentation plans', () => {
  const table: Array<[string, string, CodexRoute, InstrumentPlan]> = [
    [
      'a bare claude gets a fresh id and the settings overlay',
      'claude',
      vacant,
      {
        suffix: ` --session-id '${NEW}' --settings '${NS}/claude-settings.json'`,
        env: { FLEETCOM_CAPTURE_FILE: CAPTURE },
        pinnedId: NEW,
        captures: true,
      },
    ],
    [
      'a claude resume gets only the settings overlay',
      `claude --resume '${ID}'`,
      vacant,
      { suffix: ` --settings '${NS}/claude-settings.json'`, env: { FLEETCOM_CAPTURE_FILE: CAPTURE }, pinnedId: ID, captures: true },
    ],
    [
      'a bare codex with a vacant route gets the notify override and an empty chain',
      'codex',
      vacant,
      {
        suffix: ` -c 'notify=["${NS}/codex-notify.sh"]'`,
        env: { FLEETCOM_CAPTURE_FILE: CAPTURE, FLEETCOM_NOTIFY_CHAIN: '' },
        pinnedId: null,
        captures: true,
      },
    ],
    [
      'a codex resume with a chained notifier carries its argv joined by newlines',
      `codex resume ${CID}`,
      { kind: 'chain', argv: ['/my/thing', '--flag', 'with space'] },
      {
        suffix: ` -c 'notify=["${NS}/codex-notify.sh"]'`,
        env: { FLEETCOM_CAPTURE_FILE: CAPTURE, FLEETCOM_NOTIFY_CHAIN: '/my/thing\n--flag\nwith space' },
        pinnedId: CID,
        captures: true,
      },
    ],
    [
      'a codex with an opaque route gets nothing',
      'codex',
      { kind: 'opaque', reason: 'x' },
      { suffix: '', env: {}, pinnedId: null, captures: false },
    ],
    [
      'a codex resume with an opaque route keeps its target',
      `codex resume ${CID}`,
      { kind: 'opaque', reason: 'x' },
      { suffix: '', env: {}, pinnedId: CID, captures: false },
    ],
    ['a bare grok gets a fresh id only', 'grok', vacant, { suffix: ` --session-id '${NEW}'`, env: {}, pinnedId: NEW, captures: false }],
    ['a grok resume gets nothing', `grok --resume ${ID}`, vacant, { suffix: '', env: {}, pinnedId: ID, captures: false }],
  ];
  it.each(table)('%s', (_title, command, route, expected) => {
    expect(plan(command, route)).toEqual(expected);
  });

  it('refuses an id maker that returns something invalid', () => {
    const detection = agent('claude');
    for (const bad of [ID.toUpperCase(), `${ID}'; id '`, '']) {
      expect(() =>
        instrument({ detection, namespace: NS, captureFile: CAPTURE, newId: () => bad, codexRoute: vacant, home: '/h/.claude', env: {} }),
      ).toThrow(/invalid id/);
    }
  });

  it('leaves the program word as typed', () => {
    expect(plan('/usr/local/bin/claude').suffix.startsWith(' --session-id')).toBe(true);
  });
});

describe('instrumented strings through a real /bin/sh', () => {
  const namespaces = [
    "/tmp/it's here/ns",
    '/tmp/dollar $HOME/ns',
    '/tmp/back\\slash "quoted"/ns',
    '/tmp/new\nline/ns',
    '/tmp/ünï 🚀/ns',
  ];

  it.each(namespaces)('passes claude its paths intact for namespace %j', (namespace) => {
    const { suffix } = plan('claude', vacant, namespace);
    expect(argvThroughShell(suffix)).toEqual(['--session-id', NEW, '--settings', `${namespace}/claude-settings.json`]);
  });

  it.each(namespaces)('passes codex a TOML override naming the script for namespace %j', (namespace) => {
    const argv = argvThroughShell(plan('codex', vacant, namespace).suffix);
    expect(argv).toHaveLength(2);
    expect(argv[0]).toBe('-c');
    const override = argv[1] ?? '';
    // The escapes TOML basic strings use here are JSON's too, so JSON can read the value back.
    const match = /^notify=\[(".*")\]$/s.exec(override);
    expect(match).not.toBeNull();
    expect(JSON.parse(match?.[1] ?? '""')).toBe(`${namespace}/codex-notify.sh`);
    expect(override).not.toContain('\n');
    if (!namespace.includes('\n')) {
      expect(classifyNotifyValue(override.slice('notify='.length))).toEqual({
        kind: 'chain',
        argv: [`${namespace}/codex-notify.sh`],
      });
    }
  });
});
