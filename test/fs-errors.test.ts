import { describe, expect, it } from 'vitest';
import { describeFsError } from '../src/errors.js';

const withCode = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('describeFsError', () => {
  it('names a known code in words, with the code', () => {
    expect(describeFsError(withCode('EROFS', "EROFS: read-only file system, unlink '/tmp/x'"))).toBe('read-only file system (EROFS)');
    expect(describeFsError(withCode('EWHATEVER', 'x'))).toBe('failed (EWHATEVER)');
  });

  it('falls back to the message when the code is empty (Node 24 rmSync on a read-only mount)', () => {
    const error = withCode('', ", Unknown error: Read-only file system '/tmp/x/state.json'");
    expect(describeFsError(error)).toBe("Unknown error: Read-only file system '/tmp/x/state.json'");
  });

  it('takes the message of an error without a code', () => {
    expect(describeFsError(new Error('boom'))).toBe('boom');
    expect(describeFsError('plain')).toBe('plain');
  });
});
