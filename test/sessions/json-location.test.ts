import { describe, expect, it } from 'vitest';
import { lineColumn, locateJsonError } from '../../src/sessions/json-location.js';

describe('locateJsonError', () => {
  it.each([
    '{}',
    '[]',
    ' {"a": [1, -2.5e+3, 0, true, false, null, "x\\u00e9\\n\\"", {}]} ',
    '"just a string"',
    '{"nested": {"deep": [[[]]]}}',
  ])('finds nothing wrong in valid JSON %j', (text) => {
    expect(() => JSON.parse(text)).not.toThrow();
    expect(locateJsonError(text)).toBeNull();
  });

  it.each(['01', '1.', '-', '+1', '.5', '{"a" 1}', "{'a': 1}", '[1,]', 'tru', 'nul', '"\\u12"', '{"a":1}}'])(
    'agrees with JSON.parse that %j is invalid',
    (text) => {
      expect(() => JSON.parse(text)).toThrow();
      expect(locateJsonError(text)).not.toBeNull();
    },
  );

  it.each([
    ['{"a": 1 "b": 2}', 8, "expected ',' or '}'"],
    ['[1 2]', 3, "expected ',' or ']'"],
    ['{"a": [1}', 8, "expected ',' or ']'"],
  ])('says which closing bracket %j wants, and where', (text, offset, message) => {
    expect(locateJsonError(text)).toEqual({ offset, message });
  });

  it('does not overflow on absurd nesting', () => {
    const text = '['.repeat(200_000);
    expect(locateJsonError(text)).not.toBeNull();
  });
});

describe('lineColumn', () => {
  it.each([
    ['abc', 0, 1, 1],
    ['abc', 2, 1, 3],
    ['a\nbc', 3, 2, 2],
    ['a\n\n🚀x', 5, 3, 2],
  ])('in %j offset %i is line %i column %i', (text, offset, line, column) => {
    expect(lineColumn(text, offset)).toEqual({ line, column });
  });
});

describe('locateJsonError on long tokens', () => {
  it('reads past a number longer than any buffer to the real problem', () => {
    const text = `[${'9'.repeat(1000)} x]`;
    expect(locateJsonError(text)).toEqual({ offset: 1002, message: "expected ',' or ']'" });
  });
});
