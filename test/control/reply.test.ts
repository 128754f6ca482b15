import { describe, expect, it } from 'vitest';
import { readReply } from '../../src/control/reply.js';

describe('a reply as the client reads it', () => {
  it.each([
    [{ ok: true, result: [1, 2] }, { ok: true, result: [1, 2] }],
    [{ ok: true }, { ok: true, result: undefined }],
    [{ ok: true, result: null, extra: 1 }, { ok: true, result: null }],
    [{ ok: false, error: 'no task 9', exitCode: 1 }, { ok: false, error: 'no task 9', exitCode: 1 }],
    [{ ok: false, error: '', exitCode: 3, extra: 'x' }, { ok: false, error: '', exitCode: 3 }],
  ])('reads %j', (value, reply) => expect(readReply(value)).toEqual(reply));

  it.each([
    ['null', null],
    ['an array', [{ ok: true }]],
    ['a string', 'ok'],
    ['ok as a string', { ok: 'true', result: 1 }],
    ['no ok', { result: 1 }],
    ['an error without its message', { ok: false, exitCode: 1 }],
    ['an error message that is not text', { ok: false, error: 7, exitCode: 1 }],
    ['an exit code that is not an integer', { ok: false, error: 'x', exitCode: 1.5 }],
    ['an exit code given as text', { ok: false, error: 'x', exitCode: '1' }],
    ['an error without an exit code', { ok: false, error: 'x' }],
  ])('refuses %s', (_label, value) => expect(readReply(value)).toBeNull());
});
