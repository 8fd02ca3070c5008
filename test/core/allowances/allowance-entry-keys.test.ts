import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keepLineEndings, removeEntryKey, setEntryKey } from '../../../src/core/allowances/allowance-edit.js';
import { parseAllowanceFile } from '../../../src/core/allowances/allowance-parse.js';
import { serializeQuarantine } from '../../../src/core/allowances/allowance-serialize.js';

const FILE = `# header: reviewed with the tests
- id: a1b2c3d4
  test: api > aborts
  file: test/api.test.ts
  budget: 2s
  reason: slow server
  # the budget was measured on CI
  added: 2026-12-01
# next entry's comment
- id: b2c3d4e5
  test: api > zz
  file: test/api.test.ts
  budget: 1s
  reason: other
  added: 2026-12-01
`;

const Q = { reason: 'flaky on CI', link: 'https://t/19', expires: '2027-01-15' };

describe('setting and removing a key of one entry', () => {
  it('adds a quarantine map to an entry and keeps every comment with its entry', () => {
    const next = setEntryKey(FILE, 'a1b2c3d4', 'quarantine', serializeQuarantine(Q), 'f.yaml');
    expect(next).toContain(
      "  added: 2026-12-01\n  quarantine:\n    reason: flaky on CI\n    link: https://t/19\n    expires: 2027-01-15\n# next entry's comment\n",
    );
    const parsed = parseAllowanceFile(next, 'f.yaml');
    expect(parsed.problems).toEqual([]);
    expect(parsed.allowances[0]?.quarantine).toEqual(Q);
    expect(parsed.allowances[1]?.quarantine).toBeNull();
    expect(removeEntryKey(next, 'a1b2c3d4', 'quarantine', 'f.yaml')).toBe(FILE);
  });

  it('replaces a key in place and leaves the other entries byte for byte', () => {
    const once = setEntryKey(FILE, 'b2c3d4e5', 'quarantine', serializeQuarantine(Q), 'f.yaml');
    const twice = setEntryKey(once, 'b2c3d4e5', 'quarantine', serializeQuarantine({ ...Q, link: null }), 'f.yaml');
    expect(twice.slice(0, FILE.indexOf('- id: b2c3d4e5'))).toBe(FILE.slice(0, FILE.indexOf('- id: b2c3d4e5')));
    expect(parseAllowanceFile(twice, 'f.yaml').allowances[1]?.quarantine).toEqual({ ...Q, link: null });
  });

  it('keeps a CRLF file CRLF', () => {
    const crlf = FILE.replace(/\n/g, '\r\n');
    const next = keepLineEndings(crlf, (t) =>
      setEntryKey(t, 'a1b2c3d4', 'quarantine', serializeQuarantine(Q), 'f.yaml'),
    );
    expect(next.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('round-trips any reason and link', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 200 }).filter((s) => s.trim() !== '' && s === s.trim()),
        fc.option(fc.string({ minLength: 1 }).filter((s) => s.trim() !== '' && s === s.trim())),
        (reason, link) => {
          const terms = { reason, link, expires: null };
          const next = setEntryKey(FILE, 'a1b2c3d4', 'quarantine', serializeQuarantine(terms), 'f.yaml');
          const parsed = parseAllowanceFile(next, 'f.yaml');
          expect(parsed.problems).toEqual([]);
          expect(parsed.allowances[0]?.quarantine).toEqual(terms);
        },
      ),
    );
  });

  it('an entry with only a quarantine parses; an entry with neither names both', () => {
    const only = `- id: c3d4e5f6\n  test: t\n  file: a.test.ts\n${serializeQuarantine(Q)
      .map((l) => `  ${l}`)
      .join('\n')}\n  added: 2026-12-01\n`;
    const parsed = parseAllowanceFile(only, 'f.yaml');
    expect(parsed.problems).toEqual([]);
    expect(parsed.allowances[0]).toMatchObject({ budget: null, reason: '', quarantine: Q });
    const neither = parseAllowanceFile('- id: c3d4e5f6\n  test: t\n  file: a.test.ts\n  added: 2026-12-01\n', 'f.yaml');
    expect(neither.problems[0]?.message).toContain('budget is missing');
    expect(neither.problems[0]?.message).toContain('quarantine');
  });
});
