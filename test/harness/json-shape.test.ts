import { describe, expect, it } from 'vitest';
import { fieldProblem, isJsonObject } from '../../src/harness/json-shape.js';

describe('the hand checks of small JSON shapes', () => {
  it.each([
    [{}, true],
    [{ a: 1 }, true],
    [[], false],
    [null, false],
    ['{}', false],
    [3, false],
  ])('calls %j an object: %s', (value, expected) => expect(isJsonObject(value)).toBe(expected));

  const FIELDS = { type: 'string', text: 'string?', isMeta: 'boolean?' } as const;
  it.each([
    ['every field of its type', { type: 'user', text: 'hi', isMeta: false }, null],
    ['the optional fields left out', { type: 'user' }, null],
    ['keys it does not know', { type: 'user', brand_new: [1] }, null],
    ['a required field missing', { text: 'hi' }, 'type: expected a string, found none'],
    ['a required field of another type', { type: 7 }, 'type: expected a string'],
    ['an optional field of another type', { type: 'user', text: null }, 'text: expected a string'],
    ['a boolean given as a string', { type: 'user', isMeta: 'true' }, 'isMeta: expected a boolean'],
    ['a list instead of an object', [{ type: 'user' }], '(payload): expected an object'],
    ['null', null, '(payload): expected an object'],
  ])('with %s says %j', (_title, value, problem) => expect(fieldProblem(value, FIELDS)).toBe(problem));
});
