import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allowanceKey } from '../../../src/core/allowances/allowance-match.js';
import { parseConfig } from '../../../src/core/config.js';
import { loadAllowancesForRun } from '../../../src/io/allowances/allowances-for-run.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-seam-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const config = parseConfig('budget:\n  test: 200ms\n', 'flakeguard.yaml');
function put(rel: string, text: string): void {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}
const entry = (id: string, test: string, file: string, extra = '') =>
  `- id: ${id}\n  test: ${test}\n  file: ${file}\n  budget: { linux: 2s, default: 1s }\n  reason: r\n  added: 2026-11-30\n${extra}`;
const run = (tests: { file: string; fullName: string; line: number | null }[], today = '2026-11-30') =>
  loadAllowancesForRun({ root, config, tests, platform: 'linux', today });

describe('loadAllowancesForRun', () => {
  it('returns nothing without allowance files', async () => {
    expect(await run([{ file: 'a.test.ts', fullName: 'x', line: 1 }])).toEqual({
      applied: new Map(),
      quarantine: new Map(),
      notices: [],
      warnings: [],
    });
  });

  it('applies exact matches without reading test sources', async () => {
    put('a.test.ts', 'this is not javascript (');
    put('allowances/a.test.ts.yaml', entry('a1a1a1a1', 'g > slow', 'a.test.ts'));
    const result = await run([{ file: 'a.test.ts', fullName: 'g > slow', line: 3 }]);
    expect(result.warnings).toEqual([]);
    expect(result.applied.get(allowanceKey({ file: 'a.test.ts', fullName: 'g > slow' }))).toEqual({
      id: 'a1a1a1a1',
      budget: { kind: 'map', values: { linux: 2000, default: 1000 } },
      match: 'exact',
      storedName: 'g > slow',
      storedFile: 'a.test.ts',
    });
  });

  it('warns about expired, invalid and orphan entries and applies none of them', async () => {
    put('a.test.ts', `import { it } from 'vitest';\nit('kept', () => {});\nit('old', () => {});\n`);
    put(
      'allowances/a.test.ts.yaml',
      entry('a1a1a1a1', 'old', 'a.test.ts', '  expires: 2026-11-29\n') +
        entry('b2b2b2b2', 'gone', 'a.test.ts') +
        entry('c3c3c3c3', 'kept', 'a.test.ts').replace('reason: r', 'reason: ""'),
    );
    const result = await run([
      { file: 'a.test.ts', fullName: 'kept', line: 2 },
      { file: 'a.test.ts', fullName: 'old', line: 3 },
    ]);
    expect(result.applied.size).toBe(0);
    expect(result.warnings).toEqual([
      'allowances/a.test.ts.yaml:18:11: reason is missing or empty; say why this test may take longer than the budget',
      'allowances/a.test.ts.yaml:1:3: allowance a1a1a1a1 for "old" expired on 2026-11-29 and no longer applies; set a later expires date or remove it',
      'allowances/a.test.ts.yaml:8:3: allowance b2b2b2b2 is an orphan: no test matches "gone" in a.test.ts (by name, body or git rename); remove it with flakeguard allowances prune, or fix its test and file',
    ]);
  });

  it('is ambiguous when a stored body fits every row of a .each test', async () => {
    const body = `(n) => { expect(n).toBeGreaterThan(0); }`;
    put('a.test.ts', `import { it, expect } from 'vitest';\nit.each([1, 2])('adds %i', ${body});\n`);
    const { extractTests } = await import('../../../src/core/source/test-source.js');
    const fp = extractTests(`it.each([1])('whatever', ${body});`, 'x.test.ts')[0]?.fingerprint ?? '';
    put('allowances/b.test.ts.yaml', entry('a1a1a1a1', 'sums %i', 'b.test.ts', `  fingerprint: ${fp}\n`));
    const result = await run([
      { file: 'a.test.ts', fullName: 'adds 1', line: 2 },
      { file: 'a.test.ts', fullName: 'adds 2', line: 2 },
    ]);
    expect(result.applied.size).toBe(0);
    expect(result.warnings).toEqual([
      expect.stringContaining(
        'allowance a1a1a1a1 for "sums %i" is ambiguous (2 tests in other files have this body (a copy?): "adds 1" in a.test.ts, "adds 2" in a.test.ts) and applies to none',
      ),
    ]);
  });

  it('leaves alone an allowance whose test exists but is not in this run (another shard)', async () => {
    put('a.test.ts', `import { it } from 'vitest';\nit('here', () => { a(); });\n`);
    put('b.test.ts', `import { it } from 'vitest';\nit('elsewhere', () => { b(); });\n`);
    put(
      'allowances/b.test.ts.yaml',
      entry('a1a1a1a1', 'elsewhere', 'b.test.ts') + entry('b2b2b2b2', 'gone', 'b.test.ts'),
    );
    const result = await run([{ file: 'a.test.ts', fullName: 'here', line: 2 }]);
    expect(result.applied.size).toBe(0);
    expect(result.notices).toEqual([]);
    expect(result.warnings).toEqual([expect.stringContaining('allowance b2b2b2b2 is an orphan')]);
  });

  it('reports a test file that does not parse when it has to read sources', async () => {
    put('a.test.ts', `import { it } from 'vitest';\nit('x', () => {\n  const = 1;\n});\n`);
    put('allowances/a.test.ts.yaml', entry('a1a1a1a1', 'renamed away', 'a.test.ts'));
    const result = await run([{ file: 'a.test.ts', fullName: 'x', line: 2 }]);
    expect(result.warnings[0]).toMatch(/^a\.test\.ts:3:9: cannot read the tests in this file: /);
  });
});
