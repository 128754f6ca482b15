// `fleetcom run -- WORDS…` runs exactly those words, whatever the user's shell would expand.
import { describe, expect, it } from 'vitest';
import { startFleet } from '../helpers/fleet.js';
import { waitForText } from '../helpers/pane.js';
import { useSandbox } from '../helpers/sandbox.js';

describe('the words after --', () => {
  it('reach bash unexpanded: a=~/x stays a=~/x', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb, { env: { SHELL: '/bin/bash' } });
    // The inner sh prints the words it got; bash would have expanded ~ in the unquoted ones.
    const id = await fleet.run('sh', '-c', 'printf "[%s]\\n" "$@" done; sleep 30', 'sh', 'a=~/x', 'b:~/y');
    const task = await fleet.task(id);
    const text = await waitForText(sb, task.paneId, '[done]');
    expect(text.split('\n').filter((l) => l.startsWith('['))).toEqual(['[a=~/x]', '[b:~/y]', '[done]']);
  });
});
