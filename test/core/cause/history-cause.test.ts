import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideHistoryCause, findHistoryCause, type HistoryRun } from '../../../src/core/cause/history-cause.js';
import { formatHistoryMarkdown, formatHistoryReport } from '../../../src/core/history/history-format.js';
import { computeHistoryReport, type TestHistoryRun } from '../../../src/core/history/history-report.js';
import { renderHistoryHtml } from '../../../src/core/html/history-html.js';

const run = (over: Partial<HistoryRun> = {}): HistoryRun => ({
  platform: 'linux',
  shard: null,
  state: 'passed',
  flaky: false,
  error: null,
  ...over,
});
const many = (n: number, over: Partial<HistoryRun>): HistoryRun[] => Array.from({ length: n }, () => run(over));
const at = { file: 'test/api.test.ts', line: null };

describe('decideHistoryCause', () => {
  it('fails only on win32, passes there and on linux: timing (platform speed), inferred, with the counts', () => {
    const runs = [
      ...many(4, { platform: 'win32', state: 'failed', error: 'AssertionError: expected 3 to be 4' }),
      ...many(1, { platform: 'win32', flaky: true }),
      ...many(15, { platform: 'win32' }),
      ...many(30, { platform: 'linux' }),
    ];
    const cause = findHistoryCause({ ...at, runs });
    expect(cause).toMatchObject({ class: 'timing', confidence: 'inferred', evidence: [{ kind: 'history' }] });
    expect(cause.evidence[0]?.text).toMatch(
      /^failed 5\/20 runs on win32, 0\/30 on linux \(one-sided Fisher p = [\d.]+\): it fails only on win32, at that platform's speed$/,
    );
    expect(cause.fix).toContain('at test/api.test.ts');
  });

  it('fails only in shard 2/3 of many: order, naming the shard', () => {
    const runs = [
      ...many(5, { shard: '2/3', state: 'failed' }),
      ...many(10, { shard: '2/3' }),
      ...many(15, { shard: '1/3' }),
      ...many(15, { shard: '3/3' }),
    ];
    const d = decideHistoryCause(runs);
    expect(d?.class).toBe('order');
    expect(d?.evidence[0]?.text).toContain('failed 5/15 runs in shard 2/3, 0/30 in shards 1/3, 3/3');
    expect(d?.evidence[0]?.text).toContain('the test files that run before it in shard 2/3');
  });

  it('errors naming ports or sockets: network, before the platform; time-limit errors: timing', () => {
    const net = [
      ...many(3, { platform: 'win32', state: 'failed', error: 'Error: connect ECONNREFUSED 127.0.0.1:5432' }),
      ...many(1, { platform: 'win32', state: 'failed', error: 'AssertionError' }),
      ...many(40, { platform: 'linux' }),
    ];
    expect(decideHistoryCause(net)).toMatchObject({
      class: 'network',
      evidence: [{ text: "3 of 4 failed runs' errors name ECONNREFUSED" }],
    });
    const slow = [...many(2, { state: 'failed', error: 'Error: Test timed out in 5000ms.' }), ...many(10, {})];
    expect(decideHistoryCause(slow)).toMatchObject({
      class: 'timing',
      evidence: [{ text: expect.stringContaining('say "Test timed out in 5000ms"') }],
    });
  });

  it('no class: failures on two platforms, too few runs to tell, no run elsewhere, or no error text that decides', () => {
    const spread = [
      ...many(2, { platform: 'win32', state: 'failed' }),
      ...many(2, { platform: 'linux', state: 'failed' }),
      ...many(20, {}),
    ];
    const few = [...many(1, { platform: 'win32', state: 'failed' }), ...many(2, { platform: 'win32' }), ...many(3, {})];
    const alone = [...many(3, { platform: 'win32', state: 'failed' }), ...many(20, { platform: 'win32' })];
    for (const runs of [spread, few, alone]) expect(decideHistoryCause(runs)).toBeNull();
    expect(findHistoryCause({ ...at, runs: few })).toMatchObject({
      class: 'unknown',
      confidence: 'inferred',
      evidence: [],
    });
  });
});

const runArb = fc.record({
  platform: fc.constantFrom('linux', 'win32', 'darwin'),
  shard: fc.constantFrom(null, '1/2', '2/2'),
  state: fc.constantFrom('passed' as const, 'failed' as const),
  flaky: fc.boolean(),
  error: fc.constantFrom(null, 'AssertionError', 'Error: listen EADDRINUSE :::3000', 'Error: Test timed out in 10ms'),
});

describe('properties of the history rules', () => {
  it('no platform evidence unless every failure is on one platform and runs passed on another; no shard evidence unless every failure is in one shard and runs passed in another', () => {
    fc.assert(
      fc.property(fc.array(runArb, { maxLength: 60 }), (runs) => {
        const d = decideHistoryCause(runs);
        const failed = runs.filter((r) => r.state === 'failed' || r.flaky);
        const text = d?.evidence[0]?.text ?? '';
        if (/ runs on \w+, /.test(text)) {
          const platforms = new Set(failed.map((r) => r.platform));
          expect(platforms.size).toBe(1);
          expect(runs.some((r) => !platforms.has(r.platform) && r.state === 'passed' && !r.flaky)).toBe(true);
          expect(d?.class).toBe('timing');
        }
        if (/ runs in shard /.test(text)) {
          const shards = new Set(failed.map((r) => r.shard));
          expect(shards.size).toBe(1);
          expect(shards.has(null)).toBe(false);
          expect(runs.some((r) => r.shard !== null && !shards.has(r.shard))).toBe(true);
          expect(d?.class).toBe('order');
        }
      }),
    );
  });

  it('always inferred, never a class without a failed run, and the order of the runs does not matter', () => {
    fc.assert(
      fc.property(fc.array(runArb, { maxLength: 40 }), (runs) => {
        const cause = findHistoryCause({ ...at, runs });
        expect(cause.confidence).toBe('inferred');
        if (!runs.some((r) => r.state === 'failed' || r.flaky)) expect(cause.class).toBe('unknown');
        expect(findHistoryCause({ ...at, runs: [...runs].reverse() }).class).toBe(cause.class);
      }),
    );
  });

  it('a run standing for `count` alike runs decides as those runs one by one (the report gives clean passes so)', () => {
    fc.assert(
      fc.property(fc.array(runArb, { maxLength: 80 }), (runs) => {
        const flaked = runs.filter((r) => r.state === 'failed' || r.flaky);
        const clean = new Map<string, HistoryRun & { count: number }>();
        for (const r of runs.filter((r) => !(r.state === 'failed' || r.flaky))) {
          const key = `${r.platform} ${r.shard} ${r.error}`;
          const seen = clean.get(key);
          clean.set(key, seen ? { ...seen, count: seen.count + 1 } : { ...r, count: 1 });
        }
        expect(decideHistoryCause([...flaked, ...clean.values()])).toEqual(decideHistoryCause(runs));
      }),
    );
  });
});

describe('history report: the cause of its flaky tests', () => {
  const winOnly: HistoryRun[] = [
    ...many(5, { platform: 'win32', state: 'failed' }),
    ...many(10, { platform: 'win32' }),
    ...many(30, {}),
  ];

  it('history report: its flaky tests carry the cause in JSON, text, Markdown and HTML', () => {
    const outcomes: TestHistoryRun[] = winOnly.map((r) => ({ ...r, testId: 1 }));
    const report = computeHistoryReport({
      query: { since: '2026-11-01', branch: 'main', fullNamePart: null, file: null, top: 5, warnAt: 0.8 },
      runs: 45,
      tests: [
        {
          testId: 1,
          project: '',
          file: 'test/api.test.ts',
          fullName: 'api > gets',
          runs: 45,
          failedRuns: 5,
          retriedRuns: 0,
          rerunPassedRuns: 5,
        },
      ],
      platforms: [],
      series: [],
      outcomes,
    });
    expect(report.tests[0]?.cause).toMatchObject({ class: 'timing', confidence: 'inferred' });
    const text = formatHistoryReport(report);
    expect(text).toContain('    why: timing (inferred): failed 5/15 runs on win32, 0/30 on linux');
    expect(text).toContain('    fix: await the event instead of a fixed wait');
    expect(text).not.toContain('- `test/api.test.ts`');
    expect(formatHistoryMarkdown(report)).toContain('- `test/api.test.ts` api > gets: why: timing (inferred)');
    expect(renderHistoryHtml(report)).toContain('<p>fix: await the event instead of a fixed wait');
  });
});
