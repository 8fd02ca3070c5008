import { describe, expect, it } from 'vitest';
import { formatGateProgress, formatGateText } from '../../../src/commands/gate/gate-format.js';
import { formatGateMarkdown } from '../../../src/core/gate/gate-markdown.js';
import { computeGateReport, type GateReportInput } from '../../../src/core/gate/gate-report.js';
import type { GateTestInput } from '../../../src/core/gate/gate-report-test.js';
import { decideGateVerdict } from '../../../src/core/gate/gate-verdict.js';
import type { GateTry } from '../../../src/core/gate/runner-protocol.js';

const pass = (d: number): GateTry => ({ state: 'passed', durationMs: d, cold: true });
const fail = (d: number): GateTry => ({ state: 'failed', durationMs: d, cold: true, error: 'raced | the webhook' });
const limit = { limitMs: 1000, source: 'budget' as const, platformKey: 'linux' };

const makeTest = (name: string, tries: GateTry[], over: Partial<GateTestInput> = {}): GateTestInput => ({
  file: 'test/cart.test.ts',
  fullName: name,
  line: 3,
  selection: 'new',
  previous: null,
  result: decideGateVerdict({ tries, loaded: true, idle: null, alone: null, limit, warnAt: 0.8 }),
  ...over,
});

const makeInput = (tests: GateTestInput[]): GateReportInput => ({
  base: 'a'.repeat(40),
  baseRef: 'origin/main',
  tries: 5,
  platform: 'linux',
  warnAt: 0.8,
  vitestVersion: '4.1.12',
  load: {
    workers: 2,
    pids: [11, 12],
    cpus: 2,
    loadavgBefore: [1, 1, 1],
    loadavgAfter: [2.5, 1, 1],
    workersMachineShare: 0.9,
    testsCpuShare: 0.4,
  },
  tests,
  notRun: [],
  unchanged: 2,
  proposals: [],
  notices: [],
  wallMs: 5400.4,
});

describe('computeGateReport', () => {
  it('passes only when every test is stable, and counts verdicts', () => {
    const ok = computeGateReport(makeInput([makeTest('a', [pass(1), pass(2), pass(3), pass(4), pass(5)])]));
    expect(ok).toMatchObject({
      format: 'flakeguard-gate-report',
      version: 7,
      verdict: 'pass',
      base: 'a'.repeat(40),
      tries: 5,
      wallMs: 5400,
    });
    expect(ok.tests[0]).toMatchObject({
      file: 'test/cart.test.ts',
      fullName: 'a',
      selection: 'new',
      verdict: 'stable',
      passes: 5,
      tryCount: 5,
    });
    expect(ok.tests[0]?.tries.map((t) => t.durationMs)).toEqual([1, 2, 3, 4, 5]);
    expect(ok.warnAt).toBe(0.8);
    const bad = computeGateReport(
      makeInput([
        makeTest('a', [pass(1)]),
        makeTest('b', [pass(1), fail(1)], {
          selection: 'renamed',
          previous: { file: 'test/cart.test.ts', fullName: 'old b' },
        }),
      ]),
    );
    expect(bad.verdict).toBe('fail');
    expect(bad.counts).toMatchObject({ stable: 1, flaky: 1, failing: 0 });
    expect(JSON.parse(JSON.stringify(bad))).toEqual(bad);
  });
});

describe('gate formats', () => {
  const report = computeGateReport(
    makeInput([
      makeTest('cart > pays', [pass(10), fail(12), pass(9), pass(11), fail(10)], {
        selection: 'renamed',
        previous: { file: 'test/cart.test.ts', fullName: 'cart > paid' },
      }),
    ]),
  );

  it('text: one block per test with figures, the load as measured, the summary', () => {
    const text = formatGateText(report, { color: false });
    expect(text).toContain('flaky            test/cart.test.ts:3 > cart > pays  [renamed from "cart > paid"]');
    expect(text).toContain('3/5 passed  tries 10ms 12ms 9ms 11ms 10ms  median 10ms  max 12ms  limit 1.00s (budget)');
    expect(text).toContain('3/5 passed: failure rate below 81.1% at 95% confidence');
    expect(text).toContain('took 90% of the machine (measured, /proc)');
    expect(text).toContain('gate failed: 1 flaky (5.40s)');
  });

  it('text: a test with many tries shows the first 12 durations and how many more (the JSON keeps them all)', () => {
    const many = computeGateReport(
      makeInput([
        makeTest(
          'cart > adds',
          Array.from({ length: 150 }, () => pass(6)),
        ),
      ]),
    );
    const text = formatGateText(many, { color: false });
    expect(text).toContain(`150/150 passed  tries ${Array(12).fill('6ms').join(' ')} (+138 more)  median 6ms`);
    expect(many.tests[0]?.tries).toHaveLength(150);
  });

  it('markdown: a table row per test, pipes escaped', () => {
    const md = formatGateMarkdown(report);
    expect(md).toContain('### flakeguard gate: failed');
    expect(md).toContain(
      '| flaky | `test/cart.test.ts:3` cart > pays | renamed from "cart > paid" | 3/5 | 10ms | 12ms | 1.00s |',
    );
  });

  it("a merged report's base ref: control characters made visible in the text and the Markdown", () => {
    const hostile = { ...report, baseRef: 'main\u001b[2J\n::error::x' };
    for (const out of [formatGateText(hostile, { color: false }), formatGateMarkdown(hostile)]) {
      expect(out).not.toContain('\u001b');
      expect(out.split('\n').filter((l) => l.startsWith('::'))).toEqual([]);
    }
  });

  it('progress line', () => {
    expect(
      formatGateProgress({
        phase: 'under load',
        testIndex: 2,
        tests: 7,
        attempt: 3,
        maxTries: 5,
        label: 'a.test.ts > x',
        state: 'passed',
        elapsedMs: 4200,
        load: 2,
      }),
    ).toBe('gate under load: test 2/7 try 3 of at most 5 passed a.test.ts > x (4.2s, load 2 workers)');
  });
});
