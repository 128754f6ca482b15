import { describe, expect, it } from 'vitest';
import { parseRequest, PROTOCOL_VERSION } from '../../src/control/protocol.js';

describe('control protocol', () => {
  it.each([
    ['not json', 'request is not valid JSON'],
    ['[]', 'request needs a numeric "v" and a string "op"'],
    ['{"op":"ls"}', 'request needs a numeric "v" and a string "op"'],
    [`{"v":${PROTOCOL_VERSION},"op":"fly"}`, 'bad fly request'],
    [`{"v":${PROTOCOL_VERSION},"op":"kill","task":"3; rm -rf /"}`, 'task: expected a task id, %pane or @window'],
    [`{"v":${PROTOCOL_VERSION},"op":"run","command":"","cwd":"/","env":{},"name":null,"group":null}`, 'bad run request: command'],
    [`{"v":${PROTOCOL_VERSION},"op":"pane-died","pane":"%x"}`, 'bad pane-died request: pane'],
    [`{"v":${PROTOCOL_VERSION},"op":"ls","fromState":"yes"}`, 'bad ls request: fromState'],
  ])('answers %j with an error reply naming what is wrong', (line, message) => {
    const reply = parseRequest(line);
    expect(reply).toMatchObject({ ok: false, exitCode: 1 });
    expect((reply as { error: string }).error).toContain(message);
  });

  it('refuses another protocol version, naming both', () => {
    expect(parseRequest('{"v":7,"op":"ls"}')).toEqual({
      ok: false,
      exitCode: 1,
      error: `protocol version 7 is not spoken here (this supervisor speaks ${PROTOCOL_VERSION}); restart the fleet with the same fleetcom`,
    });
  });

  it('accepts down from any version, so an old supervisor can always be stopped', () => {
    expect(parseRequest('{"v":99,"op":"down"}')).toEqual({ op: 'down' });
  });

  it('parses a valid request without its version', () => {
    expect(parseRequest(`{"v":${PROTOCOL_VERSION},"op":"rerun","task":"%12"}`)).toEqual({ op: 'rerun', task: '%12' });
    expect(parseRequest(`{"v":${PROTOCOL_VERSION},"op":"ls","fromState":true}`)).toEqual({ op: 'ls', fromState: true });
  });

  it('drops a key it does not know, as a supervisor from before fromState does with it', () => {
    expect(parseRequest(`{"v":${PROTOCOL_VERSION},"op":"ls","later":true}`)).toEqual({ op: 'ls' });
  });
});
