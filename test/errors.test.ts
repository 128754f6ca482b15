import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config/file.js';
import { CaptureSetupError } from '../src/capture/namespace.js';
import { FleetError, NoFleetError, UsageError } from '../src/errors.js';
import { UnsafeDirError } from '../src/fs-safety.js';
import { RecipeNotFoundError, SessionError, SessionUsageError } from '../src/sessions/errors.js';
import { TmuxError, TmuxMissingError, TmuxTooOldError } from '../src/tmux/errors.js';

describe('one error base', () => {
  it.each([
    [new UsageError('u'), 2],
    [new NoFleetError(), 3],
    [new ConfigError('/c.json', 'k', 'bad'), 2],
    [new CaptureSetupError('/r', 'is a symbolic link'), 1],
    [new UnsafeDirError('/d', 'is not a directory'), 1],
    [new SessionError('s'), 1],
    [new SessionUsageError('empty'), 2],
    [new RecipeNotFoundError('/s.json'), 1],
    [new TmuxError('new-window', 'boom', 1), 1],
    [new TmuxMissingError(), 1],
    [new TmuxTooOldError('tmux 2.9', '3.2'), 1],
  ] as const)('%s is a FleetError with exit code %i, named after its class', (error, code) => {
    expect(error).toBeInstanceOf(FleetError);
    expect(error.exitCode).toBe(code);
    expect(error.name).toBe(error.constructor.name);
  });
});
