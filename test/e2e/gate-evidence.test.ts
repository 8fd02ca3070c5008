import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GateReportJson } from '../../src/core/gate/gate-report.js';
import type { Fixture } from '../helpers/fixture.js';
import { EVIDENCE_BASE, EVIDENCE_BRANCH, EVIDENCE_TRUTH } from './gate-evidence-fixtures.mjs';
import { createGateFixture } from './gate-fixtures.js';

// Needs `npm run build`. Issue 36: on a branch of 21 selected tests in 9 files, the gate under its
// defaults (x2, 5 to 10 tries, the default time budget) gives every test its true verdict, and every
// test that is not stable a cause with a fix naming file:line; with --time-budget 30s, no verdict
// contradicts the truth: what the budget cut is `inconclusive`, naming what is missing. The truths are
// deterministic (counters on disk, a worker-global flag, CPU work against the test's own CPU clock).
const NO_CI = { CI: '', GITHUB_ACTIONS: '' };

type Test = GateReportJson['tests'][number];
const find = (report: GateReportJson, file: string, name: string): Test | undefined =>
  report.tests.find((t) => t.file === file && t.fullName === name);

describe('flakeguard gate: evidence first, on a branch of 21 tests', () => {
  let fx: Fixture;
  let full: { exitCode: number | undefined; report: GateReportJson; stderr: string };
  let short: { exitCode: number | undefined; report: GateReportJson; stderr: string };
  let tight: { exitCode: number | undefined; report: GateReportJson; stderr: string };

  beforeAll(async () => {
    fx = await createGateFixture(EVIDENCE_BRANCH, EVIDENCE_BASE);
    const run = async (on: Fixture, more: string[]) => {
      const r = await on.flakeguard(['gate', '--json', ...more], NO_CI);
      return { exitCode: r.exitCode, report: JSON.parse(r.stdout) as GateReportJson, stderr: r.stderr };
    };
    // Copies before the first gate: their counters on disk start again from 1.
    const copy = fx.copy();
    const copy2 = fx.copy();
    full = await run(fx, []);
    short = await run(copy, ['--time-budget', '30s']);
    // The issue's 30s may cover this small branch on a quiet machine; 1s (16 s with one try's ceiling) cuts into the must-have checks.
    tight = await run(copy2, ['--time-budget', '1s']);
    copy.remove();
    copy2.remove();
    for (const [name, r] of [
      ['defaults', full],
      ['--time-budget 30s', short],
      ['--time-budget 1s', tight],
    ] as const)
      console.log(
        `${name}: exit ${r.exitCode}, ${Math.round(r.report.wallMs / 1000)} s\n${r.report.tests.map((t) => `  ${t.verdict} ${t.file} > ${t.fullName}: ${t.reason}${(t.missing ?? []).map((m) => `\n      missing: ${m}`).join('')}${t.cause ? `\n      cause: ${t.cause.class}: ${t.cause.evidence.map((e) => e.text).join('; ')}` : ''}`).join('\n')}\n${r.stderr
          .split('\n')
          .filter((l) => /plan:|run:|contention:/.test(l))
          .join('\n')}`,
      );
  }, 900_000);

  afterAll(() => fx?.remove());

  it('selects the 21 new and changed tests in 9 files', () => {
    expect(full.report.tests).toHaveLength(EVIDENCE_TRUTH.length);
    expect(new Set(full.report.tests.map((t) => t.file)).size).toBe(9);
  });

  it('under the defaults: every verdict right, exit 1, no test inconclusive', () => {
    const got = EVIDENCE_TRUTH.map((t) => [t.name, find(full.report, t.file, t.name)?.verdict]);
    expect(got, full.stderr).toEqual(EVIDENCE_TRUTH.map((t) => [t.name, t.verdict]));
    expect(full.exitCode).toBe(1);
    expect(full.report.tests.flatMap((t) => t.missing ?? [])).toEqual([]);
    expect(full.stderr).toMatch(/plan: must-have checks: /);
  });

  it('under the defaults: every test that is not stable has a cause, its class right, and a fix at file:line', () => {
    for (const truth of EVIDENCE_TRUTH.filter((t) => t.verdict !== 'stable')) {
      const t = find(full.report, truth.file, truth.name);
      expect(t?.cause, truth.name).toBeTruthy();
      if (truth.cause) expect([truth.name, t?.cause?.class]).toEqual([truth.name, truth.cause]);
      if (truth.loadSensitive) expect([truth.name, t?.loadSensitive]).toEqual([truth.name, true]);
      expect(t?.cause?.fix, truth.name).toMatch(new RegExp(` at ${truth.file.replace('.', '\\.')}:\\d+$`));
    }
    // The order cause names the test that leaves the state, and the line that writes it.
    const order = find(full.report, 'test/session.test.ts', 'shows the user');
    expect(order?.cause?.evidence[0]?.text).toContain('"logs in" in test/session.test.ts');
    expect(order?.cause?.fix).toMatch(/^reset `sessions` in beforeEach .* at test\/session\.test\.ts:5$/);
    // The parser's deadline literal is the timing signal its fix names.
    const literal =
      (EVIDENCE_BRANCH['test/debounce.test.ts'] ?? '').split('\n').findIndex((l) => l.includes('(85)')) + 1;
    expect(find(full.report, 'test/debounce.test.ts', 'parses within its time limit')?.cause?.fix).toMatch(
      new RegExp(`at test/debounce\\.test\\.ts:${literal}$`),
    );
  });

  for (const [budget, get] of [
    ['30s', () => short],
    ['1s', () => tight],
  ] as const) {
    it(`with --time-budget ${budget}: no confident verdict contradicts the truth; what was cut is inconclusive, naming it and the budget that allows it`, () => {
      const { report, exitCode } = get();
      expect(report.tests).toHaveLength(EVIDENCE_TRUTH.length);
      for (const truth of EVIDENCE_TRUTH) {
        const t = find(report, truth.file, truth.name);
        expect([truth.name, t?.verdict === truth.verdict || t?.verdict === 'inconclusive']).toEqual([truth.name, true]);
        if (t?.verdict === 'inconclusive') expect(t.missing?.length, truth.name).toBeGreaterThan(0);
        for (const m of t?.missing ?? [])
          expect(m).toMatch(
            new RegExp(`cut by the time budget ${budget}; --time-budget \\d+[sm] allows it$|slowed above`),
          );
      }
      expect(exitCode).toBe(1);
      const inconclusive = report.tests.filter((t) => t.verdict === 'inconclusive').length;
      console.log(
        `--time-budget ${budget}: ${inconclusive} of ${report.tests.length} inconclusive, ${Math.round(report.wallMs / 1000)} s`,
      );
      if (report.tests.some((t) => (t.missing ?? []).some((m) => m.includes('cut by')))) {
        expect(report.notices.join('\n')).toMatch(/run flakeguard gate --time-budget \d+[sm] to make them/);
      }
    });
  }
});
