import { describe, expect, it } from 'vitest';
import { SEP, buildFormat, escapeFormat, escapeStyle, formatQuery, windowLabel, freshSeparator, parseFlag, parseIntOrNull, parseRecord, parseRecords } from '../../src/tmux/format.js';

const F = ['pane_id', 'window_name', '@fleetcom-task'] as const;
const line = (...values: string[]) => values.map((v) => v + SEP).join('');

describe('buildFormat', () => {
  it('wraps each field and ends every field with the separator', () => {
    expect(buildFormat(F, SEP)).toBe(`#{pane_id}${SEP}#{window_name}${SEP}#{@fleetcom-task}${SEP}`);
  });
  it.each([[[]], [['a}b']], [['#{x}']], [['a b']]])('refuses %j', (fields) => {
    expect(() => buildFormat(fields, SEP)).toThrow();
  });
  it('uses a printable separator', () => {
    expect(SEP).toMatch(/^\P{C}$/u);
  });
});

describe('parseRecords', () => {
  it.each([
    ['no output means no records', '', []],
    ['one record', line('%1', 'w', '3'), [{ pane_id: '%1', window_name: 'w', '@fleetcom-task': '3' }]],
    [
      'one record per line',
      `${line('%1', 'a', '1')}\n${line('%2', 'b', '')}\n`,
      [
        { pane_id: '%1', window_name: 'a', '@fleetcom-task': '1' },
        { pane_id: '%2', window_name: 'b', '@fleetcom-task': '' },
      ],
    ],
    ['keeps spaces and tabs', line('%1', ' a\tb  ', ''), [{ pane_id: '%1', window_name: ' a\tb  ', '@fleetcom-task': '' }]],
    [
      'keeps newlines inside values',
      `${line('%1', 'x\ny', '')}\n${line('%2', '\n', '')}`,
      [
        { pane_id: '%1', window_name: 'x\ny', '@fleetcom-task': '' },
        { pane_id: '%2', window_name: '\n', '@fleetcom-task': '' },
      ],
    ],
    ['keeps a leading newline of a later first field but one', `${line('a', 'b', 'c')}\n${line('\nd', 'e', 'f')}`, [
      { pane_id: 'a', window_name: 'b', '@fleetcom-task': 'c' },
      { pane_id: '\nd', window_name: 'e', '@fleetcom-task': 'f' },
    ]],
    ['keeps | ~ and # in values', line('%1', 'a|~|b #{x}', ''), [{ pane_id: '%1', window_name: 'a|~|b #{x}', '@fleetcom-task': '' }]],
  ])('%s', (_title, output, expected) => {
    expect(parseRecords(F, output, SEP)).toEqual(expected);
  });

  it('refuses output whose value count does not match the fields', () => {
    expect(() => parseRecords(F, line('%1', 'a'), SEP)).toThrow(/multiple of 3/);
    expect(() => parseRecords(F, line('%1', `a${SEP}b`, 'c'), SEP)).toThrow();
  });
  it('refuses text after the last record', () => {
    expect(() => parseRecords(F, `${line('%1', 'a', 'b')}junk`, SEP)).toThrow(/after the last record/);
  });
  it('round-trips what buildFormat would make tmux print', () => {
    const values = { pane_id: '%7', window_name: 'build: npm run watch', '@fleetcom-task': '12' };
    const printed = buildFormat(F, SEP).replace(/#\{([^}]+)\}/g, (_m, name: keyof typeof values) => values[name]);
    expect(parseRecords(F, printed, SEP)).toEqual([values]);
  });
});

describe('formatQuery', () => {
  // What tmux prints for a query: every field's value, each followed by the separator.
  const print = (format: string, records: Array<Record<string, string>>) =>
    records.map((r) => format.replace(/#\{([^}]+)\}/g, (_m, name: string) => r[name] ?? '')).join('\n');

  it('gives every query a separator of its own, starting with SEP', () => {
    const a = freshSeparator();
    expect(a).toMatch(new RegExp(`^${SEP}[0-9a-f]{12}$`));
    expect(freshSeparator()).not.toBe(a);
  });

  it.each([
    ['SEP alone', `x${SEP}y`],
    ['a whole forged record', `x${SEP}$0${SEP}0${SEP}${SEP}${SEP}${SEP}4242${SEP}0${SEP}${SEP}${SEP}${SEP}%999${SEP}@999${SEP}9${SEP}y`],
    ['newlines and tabs', 'a\nb\tc\n'],
    ['the format syntax', '#{pane_pid}'],
  ])('keeps a value holding %s in its own field', (_title, hostile) => {
    const query = formatQuery(F);
    const records = [
      { pane_id: '%1', window_name: hostile, '@fleetcom-task': '1' },
      { pane_id: '%2', window_name: 'plain', '@fleetcom-task': hostile },
    ];
    expect(query.parse(print(query.format, records))).toEqual(records);
  });

  it('refuses a format whose separator could be read as format syntax', () => {
    expect(() => buildFormat(F, `${SEP}#{x}`)).toThrow();
    expect(() => buildFormat(F, '|')).toThrow();
  });
});

describe('parseRecord', () => {
  it('returns the single record', () => {
    expect(parseRecord(['session_id'], `$3${SEP}`, SEP)).toEqual({ session_id: '$3' });
  });
  it('refuses zero or several records', () => {
    expect(() => parseRecord(['session_id'], '', SEP)).toThrow(/one record/);
    expect(() => parseRecord(['session_id'], `$1${SEP}\n$2${SEP}`, SEP)).toThrow(/one record/);
  });
});

describe('value helpers', () => {
  it.each([
    ['', null], ['0', 0], ['17', 17], ['-1', -1], ['1.5', null], ['x', null], [' 1', null],
  ])('parseIntOrNull(%j) is %j', (input, expected) => {
    expect(parseIntOrNull(input)).toBe(expected);
  });
  it.each([['1', true], ['0', false], ['', false]])('parseFlag(%j) is %j', (input, expected) => {
    expect(parseFlag(input)).toBe(expected);
  });
  it.each([
    ['plain', 'plain'],
    ['a#b', 'a##b'],
    ['#{pane_id}', '##{pane_id}'],
    ['##', '####'],
    ['a#', 'a##'],
    ['#W #S', '##W ##S'],
    // tmux copies a run of # before [ unchanged, so such runs must not be doubled
    ['#[fg=red]', '#[fg=red]'],
    ['##[fg=red]', '##[fg=red]'],
    ['x ## #[y] #', 'x #### #[y] ##'],
  ])('escapeFormat(%j) is %j', (input, expected) => {
    expect(escapeFormat(input)).toBe(expected);
  });
  it.each([
    ['a\nb\tc\u001b[31md\u007f', 'a b c [31md '],
    ['emoji 😀 and \u200f RTL', 'emoji 😀 and \u200f RTL'],
    ['x'.repeat(80), 'x'.repeat(80)],
    ['😀'.repeat(81), `${'😀'.repeat(79)}…`],
  ])('windowLabel(%j) is %j', (input, expected) => {
    expect(windowLabel(input)).toBe(expected);
  });
  it.each([['a#b', 'a##b'], ['#[x]', '##[x]'], ['', '']])('escapeStyle(%j) is %j', (input, expected) => {
    expect(escapeStyle(input)).toBe(expected);
  });
});
