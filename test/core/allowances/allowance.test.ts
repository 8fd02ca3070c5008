import { describe, expect, it } from 'vitest';
import {
  allowanceFileFor,
  dedupeAllowances,
  isExpired,
  isInsideProject,
  testFileOf,
} from '../../../src/core/allowances/allowance.js';
import { parseAllowanceFile } from '../../../src/core/allowances/allowance-parse.js';

const STORE = 'allowances/test/hub/tracker.test.ts.yaml';
const GOOD = `# tracker allowances
- id: a1b2c3d4
  test: tracker > reloads journal
  file: test/hub/tracker.test.ts
  fingerprint: 0123456789abcdef
  budget: 7s # measured 5.3s on linux CI
  reason: loads a 40 MB journal
  added: 2026-11-30
- id: b2c3d4e5
  test: tracker > flushes
  file: test/hub/tracker.test.ts
  budget: { linux: 9s, default: 6s }
  reason: waits for fsync
  added: 2026-11-01
  expires: 2026-12-31
`;

describe('parseAllowanceFile', () => {
  it('reads entries with single and per-platform budgets', () => {
    const { allowances, problems } = parseAllowanceFile(GOOD, STORE);
    expect(problems).toEqual([]);
    expect(allowances).toEqual([
      {
        id: 'a1b2c3d4',
        fullName: 'tracker > reloads journal',
        file: 'test/hub/tracker.test.ts',
        fingerprint: '0123456789abcdef',
        commit: null,
        budget: { kind: 'single', value: 7000 },
        reason: 'loads a 40 MB journal',
        quarantine: null,
        added: '2026-11-30',
        expires: null,
        at: { storeFile: STORE, line: 2, column: 3 },
      },
      expect.objectContaining({
        id: 'b2c3d4e5',
        budget: { kind: 'map', values: { linux: 9000, default: 6000 } },
        expires: '2026-12-31',
        fingerprint: null,
      }),
    ]);
  });

  it('reads an empty file, a comment-only file and [] as no entries', () => {
    for (const text of ['', '# nothing yet\n', '[]\n'])
      expect(parseAllowanceFile(text, STORE)).toEqual({ allowances: [], problems: [] });
  });

  it('skips a bad entry with file:line:column and loads the others', () => {
    const text = `${GOOD}- id: c3d4e5f6
  test: tracker > other
  file: test/hub/tracker.test.ts
  budget: 5 sec
  reason: x
  added: 2026-11-30
- id: d4e5f6a7
  test: tracker > no reason
  file: test/hub/tracker.test.ts
  budget: 2s
  reason: ""
  added: 2026-11-30
- id: e5f6a7b8
  test: t
  file: ../elsewhere/x.test.ts
  budget: 2s
  reason: r
  added: 2026-11-30
- id: a1b2c3d4
  test: tracker > dup
  file: test/hub/tracker.test.ts
  budget: 2s
  reason: r
  added: 2026-11-30
- id: f6a7b8c9
  test: t
  file: test/hub/tracker.test.ts
  budget: 2s
  reason: r
  added: 2026-13-01
  colour: blue
`;
    const { allowances, problems } = parseAllowanceFile(text, STORE);
    expect(allowances.map((a) => a.id)).toEqual(['a1b2c3d4', 'b2c3d4e5']);
    expect(problems.map((p) => `${p.kind} ${p.where} ${p.message}`)).toEqual([
      `invalid ${STORE}:19:11 budget "5 sec" is not a duration; write 250ms, 5s, 1.5s or 2m`,
      `invalid ${STORE}:26:11 reason is missing or empty; say why this test may take longer than the budget`,
      `invalid ${STORE}:30:9 file "../elsewhere/x.test.ts" is outside the project; write a path relative to the project root, e.g. test/hub/tracker.test.ts`,
      `duplicate-id ${STORE}:34:3 id "a1b2c3d4" is already used at ${STORE}:2:3; give this entry a new id`,
      `invalid ${STORE}:46:3 unknown key "colour"; an allowance has id, test, file, fingerprint, commit, budget, reason, quarantine, added, expires`,
      `invalid ${STORE}:45:10 added "2026-13-01" is not a date; write YYYY-MM-DD`,
    ]);
  });

  it('reports malformed YAML at its position and loads nothing from that file', () => {
    const { allowances, problems } = parseAllowanceFile('- id: a1b2c3d4\n  test: [unclosed\n', STORE);
    expect(allowances).toEqual([]);
    expect(problems[0]?.kind).toBe('syntax');
    expect(problems[0]?.where).toMatch(/^allowances\/test\/hub\/tracker\.test\.ts\.yaml:[23]:\d+$/);
  });

  it('rejects a file that is not a list', () => {
    expect(parseAllowanceFile('id: x\n', STORE).problems[0]?.message).toMatch(/must be a list of entries/);
  });
});

describe('store helpers', () => {
  it('mirrors the test path and back', () => {
    expect(allowanceFileFor('allowances', 'test/hub/tracker.test.ts')).toBe(STORE);
    expect(testFileOf('allowances', STORE)).toBe('test/hub/tracker.test.ts');
    expect(testFileOf('allowances', 'other/x.yaml')).toBeNull();
  });

  it('knows paths inside the project', () => {
    expect(isInsideProject('test/a.test.ts')).toBe(true);
    expect(isInsideProject('test/../a.test.ts')).toBe(true);
    for (const bad of ['../a.test.ts', '/abs/a.test.ts', 'C:/x.test.ts', 'test/../../a.ts', '', '.'])
      expect(isInsideProject(bad)).toBe(false);
  });

  it('expires after the expiry day, not on it', () => {
    expect(isExpired({ expires: '2026-12-31' }, '2026-12-31')).toBe(false);
    expect(isExpired({ expires: '2026-12-31' }, '2027-01-01')).toBe(true);
    expect(isExpired({ expires: null }, '2099-01-01')).toBe(false);
  });

  it('keeps the first of two entries with one id across files', () => {
    const one = parseAllowanceFile(GOOD, STORE);
    const two = parseAllowanceFile(GOOD.split('- id: b2c3d4e5')[0] ?? '', 'allowances/test/other.test.ts.yaml');
    const merged = dedupeAllowances([one, two]);
    expect(merged.allowances).toHaveLength(2);
    expect(merged.problems).toEqual([
      {
        kind: 'duplicate-id',
        where: 'allowances/test/other.test.ts.yaml:2:3',
        message: `id "a1b2c3d4" is already used at ${STORE}:2:3; give this entry a new id`,
        id: 'a1b2c3d4',
      },
    ]);
  });
});
