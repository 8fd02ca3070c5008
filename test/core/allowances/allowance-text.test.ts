import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { entryBlocks } from '../../../src/core/allowances/allowance-blocks.js';
import {
  insertEntry,
  keepLineEndings,
  removeEntries,
  updateEntry,
} from '../../../src/core/allowances/allowance-edit.js';
import { parseAllowanceFile } from '../../../src/core/allowances/allowance-parse.js';
import { serializeEntry } from '../../../src/core/allowances/allowance-serialize.js';
import { yamlScalar } from '../../../src/core/allowances/allowance-text.js';
import { escapeTerminal } from '../../../src/core/untrusted-text.js';
import { entry, W } from './allowance-factories.js';

/** Strings a test name may hold: quotes, YAML indicators, newlines, spaces at the ends, controls, unicode, surrogates. */
const nasty = fc.oneof(
  fc.string({
    unit: fc.constantFrom(
      '"',
      "'",
      '\n',
      '\r',
      '\t',
      ' ',
      '#',
      ':',
      '-',
      '>',
      '|',
      '\\',
      '\u0000',
      '\u001b',
      '\u0085',
      '\u2028',
      '\ufeff',
      'é',
      '日',
      '\ud83d\ude00',
      '\ud800',
      'a',
      '%',
      '{',
      '[',
      '&',
      '*',
      '!',
    ),
  }),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc.string({ minLength: 2000, maxLength: 2000, unit: fc.constantFrom('a', ' ', '"', '\n', 'é', '\u0007') }),
);
const names = nasty.filter((s) => s.trim() !== '');

describe('allowance values round-trip', () => {
  it('writes every name on one line and reads back exactly that name, in a file that parses', () => {
    fc.assert(
      fc.property(names, names, (name, reason) => {
        const text = insertEntry(
          insertEntry('# header\n', entry('b0000001', 'other'), W),
          entry('a0000001', name, { reason }),
          W,
        );
        const parsed = parseAllowanceFile(text, W);
        expect(parsed.problems).toEqual([]);
        const got = parsed.allowances.find((a) => a.id === 'a0000001');
        expect(got?.fullName).toBe(name);
        expect(got?.reason).toBe(reason.trim());
        expect(parsed.allowances).toHaveLength(2);
        // Every entry line stays inside its entry: no value spills onto a line of its own.
        expect(text.split('\n').filter((l) => l !== '' && !/^(#|- | {2})/.test(l))).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('writes a scalar the way YAML reads it, for every string', () => {
    fc.assert(
      fc.property(nasty, (value) => {
        expect(parse(`k: ${yamlScalar(value)}\n`).k).toBe(value);
      }),
      { numRuns: 400 },
    );
  });

  it('keeps the name exactly when migrate renames and re-sorts the entry', () => {
    fc.assert(
      fc.property(names, names, (from, to) => {
        const text = serializeEntry(entry('a0000001', from)) + serializeEntry(entry('b0000001', 'm'));
        const out = updateEntry(text, 'a0000001', { test: to }, W);
        expect(
          parseAllowanceFile(out, W)
            .allowances.map((a) => [a.id, a.fullName])
            .sort(),
        ).toEqual([
          ['a0000001', to],
          ['b0000001', 'm'],
        ]);
      }),
      { numRuns: 200 },
    );
  });
});

describe('comments stay with their entry', () => {
  const text = `# header\n${serializeEntry(entry('a0000001', 'a'))}  # expires: 2027-01-01 once the disk is fast\n# about b\n${serializeEntry(entry('b0000001', 'b'))}`;

  it("an indented comment after an entry is that entry's; a comment at the dash is the next one's", () => {
    const [a, b] = entryBlocks(text, W);
    expect(text.slice(a?.blockStart, a?.end)).toContain('  # expires: 2027-01-01');
    expect(text.slice(b?.blockStart, b?.end)).toMatch(/^# about b\n- id: b0000001/);
  });

  it("prune removes the comment with its entry, and keeps the next entry's comment", () => {
    expect(removeEntries(text, new Set(['a0000001']), W)).toBe(
      `# header\n# about b\n${serializeEntry(entry('b0000001', 'b'))}`,
    );
  });

  it('migrate moves the comment with the entry it renames past another', () => {
    const out = updateEntry(text, 'a0000001', { test: 'z' }, W);
    expect(out).toBe(
      `# header\n# about b\n${serializeEntry(entry('b0000001', 'b'))}${serializeEntry(entry('a0000001', 'z'))}  # expires: 2027-01-01 once the disk is fast\n`,
    );
  });
});

describe('line endings', () => {
  it('a CRLF file stays CRLF through an insert, with no bare LF', () => {
    const crlf = `# header\r\n${serializeEntry(entry('b0000001', 'b')).replace(/\n/g, '\r\n')}`;
    const out = keepLineEndings(crlf, (lf) => insertEntry(lf, entry('a0000001', 'a'), W));
    expect(out.replace(/\r\n/g, '')).not.toContain('\n');
    expect(parseAllowanceFile(out, W).allowances.map((a) => a.fullName)).toEqual(['a', 'b']);
  });

  it('an LF file stays LF', () => {
    expect(keepLineEndings('# h\n', (lf) => `${lf}x\n`)).toBe('# h\nx\n');
  });
});

describe('terminal output', () => {
  it('escapes every control character, so no name can move the cursor or fake a line', () => {
    fc.assert(
      fc.property(nasty, (value) => {
        // eslint-disable-next-line no-control-regex
        expect(escapeTerminal(value)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
      }),
      { numRuns: 400 },
    );
    expect(escapeTerminal('a\u001b[2Jb\nc')).toBe('a\\u001b[2Jb\\nc');
  });
});
