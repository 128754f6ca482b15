import { EventEmitter } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { descriptorOutput } from '../src/deps.js';
import { tempDir } from './harness/fixtures.js';

/** A stand-in for process.stdout that records what it was given. */
function recordingStream() {
  const written: string[] = [];
  const events = new EventEmitter();
  const stream = { write: (chunk: string | Uint8Array) => (written.push(Buffer.from(chunk).toString()), true), on: (name: string, fn: (e: Error) => void) => (events.on(name, fn), stream) };
  return { written, events, stream: () => stream as unknown as NodeJS.WritableStream };
}

describe('a command output on a descriptor', () => {
  it('writes straight to the descriptor, making no stream', () => {
    const file = path.join(tempDir(), 'out');
    const fd = openSync(file, 'w');
    const { written, stream } = recordingStream();
    const out = descriptorOutput(fd, stream);
    out.write('one\n');
    out.write('twö\n');
    closeSync(fd);
    expect(readFileSync(file, 'utf8')).toBe('one\ntwö\n');
    expect(written).toEqual([]);
  });

  it('hands the text to the stream once the descriptor fails, and everything after it, in order', () => {
    // No process can hold this descriptor (EBADF): it refuses as a closed or full pipe would.
    // (A descriptor closed here could be reused by the test runner at once.)
    const { written, stream } = recordingStream();
    const out = descriptorOutput(2_000_000_000, stream);
    out.write('first\n');
    out.write('second\n');
    expect(written).toEqual(['first\n', 'second\n']);
  });
});

describe('a command output whose reader has gone', () => {
  it('drops the rest quietly when the stream reports EPIPE, and still throws any other error', () => {
    const { written, events, stream } = recordingStream();
    const out = descriptorOutput(2_000_000_000, stream);
    out.write('first\n');
    events.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    out.write('dropped\n');
    expect(written).toEqual(['first\n']);
    expect(() => events.emit('error', Object.assign(new Error('write EIO'), { code: 'EIO' }))).toThrow('EIO');
  });

});
