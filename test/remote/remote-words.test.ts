import { describe, expect, it } from 'vitest';
import { REMOTE_PROTOCOL, remoteCommandLine } from '../../src/remote/remote-words.js';
import { argvThroughShell } from '../harness/shell.js';

// ssh hands the remote login shell one string; what the remote fleetcom receives must be
// exactly the words meant here. Checked against a real /bin/sh, as the remote shell would parse it.
const hostile = [
  "it's 'quoted'",
  '$(touch /tmp/fleetcom-pwned) `id` ${HOME}',
  "'; touch /tmp/fleetcom-pwned; echo '",
  'a\\b\\\\c\\',
  'line one\nline two',
  '* ? [a] {a,b} ; | & < > # ~ !',
  '--',
  '-',
  '',
  'ünïcödé 🚀',
];

describe('the remote command line', () => {
  it('opens with the remote fleetcom and the protocol it must speak', () => {
    expect(argvThroughShell(remoteCommandLine(['node', '/opt/fleetcom cli.js'], ['ls', '--json']))).toEqual(['node', '/opt/fleetcom cli.js', '--remote-protocol', String(REMOTE_PROTOCOL), 'ls', '--json']);
  });

  it.each(hostile)('passes %j to the remote fleetcom as one word', (word) => {
    expect(argvThroughShell(remoteCommandLine(['fleetcom'], ['rename', '3', word]))).toEqual(['fleetcom', '--remote-protocol', String(REMOTE_PROTOCOL), 'rename', '3', word]);
  });
});
