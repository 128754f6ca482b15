// The fake opencode and its fork Kilo in a real tmux pane: a session at the first message in a
// real SQLite file (read with fleetcom's reader), the plugins of the inline config variable sent
// its events, the exit hint, -s continuing a session and refusing an unknown one.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readSqliteTable } from '../../src/harness/index.js';
import { paneText, spawnInPane, typeLine, waitForDeath, waitForText } from '../helpers/pane.js';
import { useSandbox } from '../helpers/sandbox.js';
import { jsonLines } from './support.js';

const READY = 'Ask anything';
const CLIENTS = [
  { name: 'opencode', dbVar: 'OPENCODE_DB', configVar: 'OPENCODE_CONFIG_CONTENT', hint: 'Continue  opencode -s ' },
  { name: 'kilo', dbVar: 'KILO_DB', configVar: 'KILO_CONFIG_CONTENT', hint: '██  kilo -s ' },
] as const;

describe.each(CLIENTS)('fake $name', ({ name, dbVar, configVar, hint }) => {
  const SID = new RegExp(`${hint}(ses_[0-9a-f]{12}[0-9A-Za-z]{14})\\b`);
  it('keeps its sessions in SQLite, sends its plugins the events, prints the hint and resumes with -s', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const work = await sb.mkdir('w', 'app');
    const log = join(sb.dir, 'events.log');
    const plugin = join(sb.dir, 'probe.js');
    await writeFile(plugin, `import { appendFileSync } from 'node:fs';\nexport const P = async () => ({ event: async ({ event }) => appendFileSync(${JSON.stringify(log)}, JSON.stringify(event) + '\\n') });\n`);
    const env = { [configVar]: JSON.stringify({ plugin: [pathToFileURL(plugin).href] }) };
    const w = await spawnInPane(sb, session, name, { cwd: work, env });
    await waitForText(sb, w.paneId, READY);
    await typeLine(sb, w.paneId, 'hello spawn subagent');
    await waitForText(sb, w.paneId, 'fake reply to: hello spawn subagent');
    await typeLine(sb, w.paneId, '/exit');
    await waitForDeath(sb, session, w.paneId);
    const id = SID.exec(await paneText(sb, w.paneId))?.[1];
    expect(id).toBeDefined();
    const read = readSqliteTable(sb.env[dbVar]!, 'session');
    if (read.kind !== 'rows') throw new Error(JSON.stringify(read));
    const rows = read.rows.map((r) => Object.fromEntries(read.columns.map((c, i) => [c, r[i]])));
    expect(rows).toEqual([
      expect.objectContaining({ id, parent_id: null, directory: work }),
      expect.objectContaining({ parent_id: id, directory: work }),
    ]);
    const events = await jsonLines(log);
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['session.created', 'session.status', 'session.idle']));
    expect(events.find((e) => e.type === 'session.created')).toMatchObject({ properties: { info: { id, directory: work } } });

    const resumed = await spawnInPane(sb, session, `${name} -s ${id}`, { cwd: work });
    await waitForText(sb, resumed.paneId, READY);
    await typeLine(sb, resumed.paneId, '/exit');
    await waitForDeath(sb, session, resumed.paneId);
    expect(await paneText(sb, resumed.paneId)).toContain(`${hint}${id}`);

    const unknown = await spawnInPane(sb, session, `${name} -s ses_000000000000AAAAAAAAAAAAAA`, { cwd: work });
    expect((await waitForDeath(sb, session, unknown.paneId)).paneDeadStatus).toBe(1);
  });
});
