import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GateReport } from '../../../src/core/gate/gate-report.js';
import { mergeGateReports, parseGateShard, pickGateShard } from '../../../src/core/gate/gate-shard.js';

const key = (t: { file: string; name: string }): readonly [string, string] => [t.file, t.name];

describe('parseGateShard', () => {
  it('reads i/n and rejects anything else with the accepted form', () => {
    expect(parseGateShard('2/3')).toEqual({ index: 2, count: 3 });
    for (const bad of ['0/3', '4/3', '1-3', '1/0', 'x'])
      expect(() => parseGateShard(bad)).toThrow(/write <index>\/<count>/);
  });
});

describe('pickGateShard', () => {
  it('puts every test in exactly one shard, whatever the input order', () => {
    const tests = fc.uniqueArray(
      fc.record({ file: fc.constantFrom('a.test.ts', 'b.test.ts', 'c/d.test.ts'), name: fc.string({ maxLength: 8 }) }),
      {
        selector: (t) => `${t.file}::${t.name}`,
        maxLength: 40,
      },
    );
    fc.assert(
      fc.property(tests, fc.integer({ min: 1, max: 6 }), fc.boolean(), (list, count, reverse) => {
        const input = reverse ? [...list].reverse() : list;
        const parts = Array.from({ length: count }, (_, i) => pickGateShard(input, key, { index: i + 1, count }));
        const all = parts
          .flat()
          .map((t) => `${t.file}::${t.name}`)
          .sort();
        expect(all).toEqual(list.map((t) => `${t.file}::${t.name}`).sort());
        // Deterministic: the same shard from another input order holds the same tests.
        const again = pickGateShard([...list], key, { index: 1, count });
        expect(again.map((t) => `${t.file}::${t.name}`)).toEqual(parts[0]!.map((t) => `${t.file}::${t.name}`));
        // Balanced: sizes differ by at most one.
        const sizes = parts.map((p) => p.length);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      }),
    );
  });
});

function shardReport(
  index: number,
  count: number,
  tests: { name: string; verdict: 'stable' | 'flaky' }[],
  base = 'abc123',
): GateReport {
  return {
    format: 'flakeguard-gate-report',
    version: 7,
    verdict: tests.some((t) => t.verdict !== 'stable') ? 'fail' : 'pass',
    base,
    baseRef: 'origin/main',
    seed: 42,
    tries: 5,
    maxTries: 10,
    timeBudgetMs: 120_000,
    platform: 'linux',
    warnAt: 0.8,
    vitestVersion: '4.1.12',
    load: {
      workers: 2,
      pids: [100 + index],
      cpus: 2,
      loadavgBefore: [1, 1, 1],
      loadavgAfter: [2, 2, 2],
      workersMachineShare: 0.9,
      testsCpuShare: 0.4,
    },
    tests: tests.map((t) => ({
      file: 'test/a.test.ts',
      fullName: t.name,
      line: 1,
      project: '',
      selection: 'new',
      previous: null,
      affectedBy: [],
      verdict: t.verdict,
      loadSensitive: false,
      passes: t.verdict === 'stable' ? 5 : 3,
      tryCount: 5,
      durationsMs: [1, 1, 1, 1, 1],
      tryStates: ['passed', 'passed', 'passed', 'passed', 'passed'],
      tries: [1, 1, 1, 1, 1].map((durationMs) => ({ state: 'passed' as const, durationMs, cold: true })),
      medianMs: 1,
      maxMs: 1,
      limitMs: 5000,
      limitSource: 'budget',
      allowanceId: null,
      failureRateUpper: 0.45,
      failureRateText: null,
      idle: null,
      alone: null,
      reason: '',
      error: null,
    })),
    counts: {
      stable: 0,
      flaky: 0,
      failing: 0,
      'order-dependent': 0,
      'over-budget': 0,
      'near-budget': 0,
      fragile: 0,
      inconclusive: 0,
    },
    notRun: [],
    unchanged: 3,
    proposals: [],
    notices: ['same note'],
    wallMs: 1000 * index,
    shard: { index, count },
  };
}

describe('mergeGateReports', () => {
  it('combines every shard into one verdict with counts over all tests', () => {
    const merged = mergeGateReports(
      [shardReport(2, 2, [{ name: 'b', verdict: 'flaky' }]), shardReport(1, 2, [{ name: 'a', verdict: 'stable' }])],
      ['s2.json', 's1.json'],
    );
    expect(merged.verdict).toBe('fail');
    expect(merged.tests.map((t) => t.fullName)).toEqual(['a', 'b']);
    expect(merged.counts).toMatchObject({ stable: 1, flaky: 1 });
    expect(merged.shard).toBeNull();
    expect(merged.mergedShards).toBe(2);
    expect(merged.load.pids).toEqual([102, 101]);
    expect(merged.notices).toEqual(['same note']);
    expect(merged.wallMs).toBe(2000);
  });

  it('refuses a missing, a doubled or a foreign shard, naming it', () => {
    const one = shardReport(1, 3, []);
    expect(() => mergeGateReports([one, shardReport(3, 3, [])], ['s1.json', 's3.json'])).toThrow(
      'missing shard report 2/3',
    );
    expect(() => mergeGateReports([one, shardReport(1, 3, [])], ['s1.json', 'again.json'])).toThrow(
      'again.json and s1.json are both shard 1/3',
    );
    expect(() => mergeGateReports([one, shardReport(2, 3, [], 'other')], ['s1.json', 's2.json'])).toThrow(
      's2.json compared against base other',
    );
    expect(() => mergeGateReports([{ ...one, shard: null }], ['whole.json'])).toThrow(
      'whole.json is not a shard report',
    );
  });
});
