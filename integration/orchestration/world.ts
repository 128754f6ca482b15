// A fleet for the orchestration tests: the fakes type as the measured clients do (codex's
// paste burst, gemini's fast return on), claude's, codex's and qwen's replies held by a gate file when asked, and
// the CLI's JSON answers parsed.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FeedEvent, LsRecord, ReplyOf } from '../../src/control/protocol.js';
import { startFleet, type Fleet } from '../helpers/fleet.js';
import { useSandbox, type Sandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';

export interface World {
  sb: Sandbox;
  fleet: Fleet;
  /** The file that lets a held claude (FAKE_CLAUDE_REPLY_GATE), codex or qwen reply once. */
  gate: string;
  send(task: string | number, ...args: string[]): Promise<{ code: number; reply: ReplyOf<'send'>; stderr: string }>;
  /** Opens the gate and waits until the fake has taken it. */
  open(): Promise<void>;
  /** Starts an agent and waits until its composer shows. */
  agent(command: string, ready?: (t: LsRecord) => boolean): Promise<LsRecord>;
}

export interface WorldOptions {
  env?: Record<string, string>;
  /** config.json of the fleet. */
  config?: Record<string, unknown>;
  /** Hold every claude, codex and qwen reply until the gate opens. */
  gated?: boolean;
  /** More words for `up`. */
  args?: string[];
}

export async function world(opts: WorldOptions = {}): Promise<World> {
  const sb = await useSandbox();
  const gate = join(sb.dir, 'reply-gate');
  Object.assign(sb.env, { FAKE_CODEX_PASTE_BURST_MS: '120', FAKE_GEMINI_FAST_RETURN_MS: '30', FAKE_GEMINI_PASTE_ENTER_MS: '40' }, opts.gated ? { FAKE_CLAUDE_REPLY_GATE: gate, FAKE_CODEX_REPLY_GATE: gate, FAKE_QWEN_REPLY_GATE: gate } : {}, opts.env);
  if (opts.config) {
    mkdirSync(sb.env.FLEETCOM_CONFIG_DIR ?? '', { recursive: true });
    writeFileSync(join(sb.env.FLEETCOM_CONFIG_DIR ?? '', 'config.json'), JSON.stringify(opts.config));
  }
  const fleet = await startFleet(sb, { args: opts.args });
  return {
    sb, fleet, gate,
    async send(task, ...args) {
      const r = await fleet.cli('send', String(task), '--json', ...args);
      if (r.stdout.trim() === '') throw new Error(`send gave no verdict (exit ${r.exitCode}): ${r.stderr}`);
      return { code: r.exitCode, reply: JSON.parse(r.stdout) as ReplyOf<'send'>, stderr: r.stderr };
    },
    async open() {
      writeFileSync(gate, '');
      await waitFor(() => !existsSync(gate), { what: 'the fake to take the reply gate' });
    },
    async agent(command, ready = (t) => t.attention === 'waiting') {
      const id = await fleet.run(command);
      return fleet.waitTask(id, ready, `${command} ready`);
    },
  };
}

/** The events `fleetcom events --json` printed, parsed. */
export function eventsOf(stdout: string): FeedEvent[] {
  return stdout.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as FeedEvent);
}
