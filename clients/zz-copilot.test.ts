import { afterAll, beforeAll, describe, it } from 'vitest';
import { runCli } from '../integration/helpers/cli.js';
import { clientsOf } from './helpers/clients.js';
import { useClientWorld } from './helpers/world.js';
import { startMockApi, type MockApi } from './mock-api.js';
let api: MockApi;
beforeAll(async () => { api = await startMockApi(); });
afterAll(() => api?.close());
describe.each(clientsOf('copilot'))('$agent', (client) => {
  it('when', async () => {
    const w = await useClientWorld(client, api);
    const cli = (...a: string[]) => runCli(a, { env: w.sb.env, cwd: w.project, timeout: 200_000 });
    const id = (await cli('run', '--cwd', w.project, '--', 'copilot')).stdout.trim();
    const t0 = Date.now();
    const sent = await cli('send', id, '--json', '--timeout', '150', 'hello there');
    process.stderr.write(`send ${Date.now() - t0} ${sent.stdout}\n`);
    const waited = await cli('wait', id, '--turn', '1', '--json', '--timeout', '150');
    process.stderr.write(`wait ${Date.now() - t0} ${waited.stdout}\n`);
    for (let i = 0; i < 40; i++) {
      const ls = JSON.parse((await cli('ls', '--json')).stdout)[0];
      const out = await cli('output', id, '--json');
      process.stderr.write(`${Date.now() - t0} conv=${ls.conversationId} src=${ls.idSource} att=${ls.attention} turn=${ls.turn} out=${out.exitCode} ${out.stderr.trim()}\n`);
      if (out.exitCode === 0) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    process.stderr.write((await w.fleet.log()).split('\n').slice(-25).join('\n') + '\n');
  }, 600_000);
});
