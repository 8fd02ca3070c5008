/**
 * `gate --markdown` on 500 changed tests: the pull-request comment starts with its marker, says what to
 * fix first (with the owners), folds the stable tests and stays under GitHub's 65,536-character limit,
 * counting the rows it left out. The tests are generated literals (50 files of 10) so the gate tries
 * each one; `isolate: false` and `--tries 1 --load 0 --slowdown 1` keep the 500 tries fast (at the
 * default slowdown the 500 tests that hold would each get tries at 2x and 4x it as well). They exist
 * on main with another body, so the branch changes them: a new test that passes also runs once
 * alone (500 more Vitest specifications, most of this file's CPU), and order dependence is
 * gate.test.ts's subject, not the comment's.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GateReportJson } from '../../src/core/gate/gate-report.js';
import { createFixture, type Fixture, type RunResult } from '../helpers/fixture.js';
import { gateAtNoSlowdown } from './gate-fixtures.js';

/** File `f` of the batch: on main (`changed` false) its 10 tests with an older body; on the branch the new bodies and, in file 0, a new failing test. */
const batch = (f: number, changed: boolean): string => {
  const tests = Array.from(
    { length: 10 },
    (_, i) =>
      `it('case ${f * 10 + i}: charges the card in currency ${f}-${i} and writes the receipt with every line item', () => {\n  expect(${i}).toBeGreaterThanOrEqual(${changed ? 0 : -1});\n});`,
  );
  const failing =
    f === 0 && changed ? ["it('declines the card', () => {\n  expect('declined').toBe('approved');\n});"] : [];
  return ["import { expect, it } from 'vitest';", ...tests, ...failing, ''].join('\n');
};
const batchFile = (f: number): string => `test/payments/batch-${String(f).padStart(2, '0')}.test.ts`;

describe('gate --markdown on 500 changed tests and a new failing one', () => {
  let fx: Fixture;
  let run: RunResult;
  let comment: string;
  beforeAll(async () => {
    fx = await createFixture({
      git: true,
      files: {
        'flakeguard.yaml': 'budget:\n  test: 5s\n',
        'vitest.config.ts':
          "import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { isolate: false, pool: 'threads' } });\n",
        '.github/CODEOWNERS': '*                @org/everyone\n/test/payments/  @org/payments\n',
        'test/keep.test.ts': "import { it } from 'vitest';\nit('keeps', () => {});\n",
        ...Object.fromEntries(Array.from({ length: 50 }, (_, f) => [batchFile(f), batch(f, false)])),
      },
    });
    await fx.git(['checkout', '-q', '-b', 'feature']);
    for (let f = 0; f < 50; f += 1) fx.write(batchFile(f), batch(f, true));
    await fx.git(['add', '-A']);
    await fx.git(['commit', '-qm', '500 changed tests and a new one']);
    run = await fx.flakeguard(gateAtNoSlowdown(1, 0, '--json', '--markdown', 'gate.md'));
    comment = readFileSync(path.join(fx.root, 'gate.md'), 'utf8');
  });
  afterAll(() => fx?.remove());

  it('fails on the one failing test; every test carries its owners in the JSON', () => {
    expect(run.exitCode, run.stderr).toBe(1);
    const report = JSON.parse(run.stdout) as GateReportJson;
    expect(report.tests).toHaveLength(501);
    expect(new Set(report.tests.map((t) => JSON.stringify(t.owners)))).toEqual(
      new Set([JSON.stringify(['@org/payments'])]),
    );
  });

  it('writes a comment under the limit: marker first, what to fix first, the stable tests folded with a count of the rest', () => {
    expect(comment.length).toBeLessThanOrEqual(65_536);
    expect(comment.split('\n')[0]).toBe('<!-- flakeguard:gate -->');
    expect(comment).toContain('**Fix first:** `test/payments/batch-00.test.ts:');
    expect(comment).toContain('declines the card (owners: @org/payments): failing');
    expect(comment).toContain('<summary>Stable (500)</summary>');
    const shown = comment.split('\n').filter((l) => l.startsWith('| stable |')).length;
    const left = Number(/… and (\d+) more not shown/.exec(comment)?.[1]);
    expect(shown).toBeGreaterThan(100);
    expect(shown + left).toBe(500);
  });
});
