import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyBreakingPoint, escalationFactors, type FactorTries } from '../../../src/core/gate/breaking-point.js';
import { CONFIRM_TRIES, TRIES_PER_HIGHER_FACTOR } from '../../../src/core/gate/check-rules.js';
import {
  CONFIRM_MAX_TRIES,
  factorMeasured,
  keepsClimbing,
  OFF_FACTOR,
  REFERENCE_COUNTED,
  sortByFactorGot,
  weighFactorEvidence,
} from '../../../src/core/gate/factor-evidence.js';
import { decideGateVerdict } from '../../../src/core/gate/gate-verdict.js';
import type { GateTry } from '../../../src/core/gate/runner-protocol.js';

const pass: GateTry = { state: 'passed', durationMs: 10, cold: true };
const fail: GateTry = { state: 'failed', durationMs: 10, cold: true, error: 'AssertionError: too slow' };
const times = (n: number, t: GateTry): GateTry[] => Array.from({ length: n }, () => t);
const limit = { limitMs: 5000, source: 'budget' as const, platformKey: 'all' };
const stableAfter = (n: number) =>
  decideGateVerdict({ tries: times(n, pass), loaded: false, idle: null, alone: null, limit, warnAt: 0.8 });

/**
 * The gate's procedure after a test passed its `n` reference tries (commands/gate/gate-escalate.ts):
 * TRIES_PER_HIGHER_FACTOR tries at each escalation factor while keepsClimbing, then CONFIRM_TRIES at
 * the reference when any failed; every outcome enumerated with its probability, each judged by the
 * real applyBreakingPoint. `failRate(factor)` is the test's chance to fail a try at that factor.
 * Returns P(fragile, the factor shown to explain it) among the tests that reach this step: failures
 * seen only above the reference and too few to be significant are a `fragile` that says so
 * ("too few failures to be sure"), never a claim that the factor explains them.
 */
function fragileChance(n: number, reference: number, failRate: (factor: number) => number): number {
  const factors = escalationFactors(reference);
  const outcomes = (k: number, p: number): [GateTry[], number][] => {
    const all: [GateTry[], number][] = [];
    for (let mask = 0; mask < 1 << k; mask += 1) {
      const tries = Array.from({ length: k }, (_, i) => ((mask >> i) & 1 ? fail : pass));
      const failed = tries.filter((t) => t === fail).length;
      all.push([tries, p ** failed * (1 - p) ** (k - failed)]);
    }
    return all;
  };
  const climb = (i: number, levels: FactorTries[], chance: number): number => {
    const factor = factors[i];
    if (factor === undefined || (levels.length > 0 && !keepsClimbing(levels[levels.length - 1]?.tries ?? []))) {
      if (!levels.some((l) => l.tries.includes(fail))) return 0;
      return outcomes(CONFIRM_TRIES, failRate(reference)).reduce((sum, [confirm, c]) => {
        const r = applyBreakingPoint(
          stableAfter(n),
          { factor: reference, asked: reference, tries: times(n, pass) },
          levels,
          confirm,
        );
        const confident = r.verdict === 'fragile' && !r.reason.includes('too few failures to be sure');
        return sum + (confident ? chance * c : 0);
      }, 0);
    }
    return outcomes(TRIES_PER_HIGHER_FACTOR, failRate(factor)).reduce(
      (sum, [tries, c]) => sum + climb(i + 1, [...levels, { factor, asked: factor, tries }], chance * c),
      0,
    );
  };
  return climb(0, [], 1);
}

describe('fragile only when the factor explains the failures', () => {
  it('a test failing at the same rate at every factor is fragile in at most 5% of the cases tried higher', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.01, max: 0.99, noNaN: true }), fc.integer({ min: 5, max: 40 }), (p, n) => {
        expect(fragileChance(n, 2, () => p)).toBeLessThanOrEqual(0.05);
      }),
      { numRuns: 60 },
    );
  });
  it('a test that always fails above its limit is fragile, and its range holds the limit', () => {
    fc.assert(
      fc.property(fc.double({ min: 2.01, max: 7.99, noNaN: true }), fc.integer({ min: 5, max: 40 }), (lim, n) => {
        expect(fragileChance(n, 2, (f) => (f > lim ? 1 : 0))).toBe(1);
        const higher = escalationFactors(2).map((f) => ({
          factor: f,
          asked: f,
          tries: times(2, f > lim ? fail : pass),
        }));
        const e = weighFactorEvidence({ factor: 2, tries: times(n, pass) }, higher, times(CONFIRM_TRIES, pass));
        expect(e.holdsAt ?? 0).toBeLessThanOrEqual(lim);
        expect(e.breaksAt ?? 0).toBeGreaterThan(lim);
      }),
      { numRuns: 40 },
    );
  });
  it('a limit right at the middle step (fails half its tries there) is still fragile: it climbs on', () => {
    expect(fragileChance(10, 2, (f) => (f >= 8 ? 1 : f >= 4 ? 0.5 : 0))).toBe(1);
    expect(keepsClimbing([pass, fail])).toBe(true);
    expect(keepsClimbing([fail, fail])).toBe(false);
  });
  it('one failure at the top step with nothing in between is neither a limit nor a flake yet: inconclusive, naming the confirm tries it lacked', () => {
    const r = applyBreakingPoint(
      stableAfter(10),
      { factor: 2, asked: 2, tries: times(10, pass) },
      [
        { factor: 4.1, asked: 4.1, tries: [pass, pass] },
        { factor: 8.2, asked: 8.2, tries: [pass, fail] },
      ],
      times(CONFIRM_TRIES, pass),
    );
    expect(r).toMatchObject({ verdict: 'inconclusive', holdsAt: 4.1, breaksAt: 8.2 });
    expect(r.reason).toBe(
      'passes at x2.0 (10/10, then 6/6 again) and failed 1 of 2 tries from x8.2 up, 0 of 18 below (one-sided Fisher p = 0.1, not below 0.05): a possible limit or a flake, too few tries at x2.0 to tell (holds at x4.1, breaks between x4.1 and x8.2); not checked, so no verdict',
    );
    expect(r.missing).toEqual([{ check: 'confirm', needed: CONFIRM_MAX_TRIES, made: CONFIRM_TRIES, for: 'verdict' }]);
  });
  it('names the measured range and the test when the factor explains it', () => {
    const r = applyBreakingPoint(
      stableAfter(5),
      { factor: 2, asked: 2, tries: times(5, pass) },
      [{ factor: 4.1, asked: 4.1, tries: [fail, fail] }],
      times(CONFIRM_TRIES, pass),
    );
    expect(r).toMatchObject({ verdict: 'fragile', holdsAt: 2, breaksAt: 4.1 });
    expect(r.reason).toContain('failed 2 of 2 tries from x4.1 up, 0 of 11 below (one-sided Fisher p = 0.013)');
    expect(r.reason).toContain('holds at x2.0, breaks between x2.0 and x4.1');
  });
  it(`counts at most ${REFERENCE_COUNTED} reference tries: they were all passes by selection`, () => {
    const e = weighFactorEvidence({ factor: 2, tries: times(40, pass) }, [{ factor: 4, tries: [fail, pass] }], []);
    expect(e.below).toEqual({ failures: 0, trials: REFERENCE_COUNTED });
    expect(e.explained).toBe(false);
  });
});

describe('a failed try is judged at the factor it got (OFF_FACTOR)', () => {
  const got = (t: GateTry, slowdown: number): GateTry => ({ ...t, slowdown });
  const higher = (x4: GateTry[], x8: GateTry[]): FactorTries[] => [
    { factor: 4.1, asked: 4, tries: x4 },
    { factor: 8.1, asked: 8, tries: x8 },
  ];

  it('a confirm try the machine starved (x6.5 where x2 was asked) that failed is a failure above the break, not a flake at x2', () => {
    const confirm = [...times(CONFIRM_TRIES - 1, got(pass, 2)), got(fail, 6.5)];
    const r = applyBreakingPoint(
      stableAfter(5),
      { factor: 2.05, asked: 2, tries: times(5, got(pass, 2)) },
      higher([got(pass, 4.1), got(pass, 4.1)], [got(fail, 8.1), got(fail, 8.1)]),
      confirm,
    );
    expect(r).toMatchObject({ verdict: 'fragile', holdsAt: 4.1, breaksAt: 6.5 });
    expect(r.reason).toContain('a failed try counted at the factor it got, x6.5, not the one asked');
    expect(r.reason).toContain(`then ${CONFIRM_TRIES - 1}/${CONFIRM_TRIES - 1} again`);
    // The same failure at about the factor asked is a flake at the reference.
    const atAsked = applyBreakingPoint(
      stableAfter(5),
      { factor: 2.05, asked: 2, tries: times(5, got(pass, 2)) },
      higher([got(pass, 4.1), got(pass, 4.1)], [got(fail, 8.1), got(fail, 8.1)]),
      [...times(CONFIRM_TRIES - 1, got(pass, 2)), got(fail, 2.4)],
    );
    expect(atAsked.verdict).toBe('flaky');
  });

  it('moves only failed tries above OFF_FACTOR x their level, keeps every try, and changes nothing when none is', () => {
    const aTry = fc.record({
      failed: fc.boolean(),
      ratio: fc.option(fc.double({ min: 0.8, max: 3, noNaN: true }), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(aTry, { maxLength: 8 }), fc.array(aTry, { maxLength: 4 }), (confirmSpec, x4Spec) => {
        const make = (s: { failed: boolean; ratio: number | undefined }, factor: number): GateTry => ({
          ...(s.failed ? fail : pass),
          ...(s.ratio === undefined ? {} : { slowdown: factor * s.ratio }),
        });
        const reference = { factor: 2, asked: 2, tries: times(5, pass) };
        const confirm = confirmSpec.map((s) => make(s, 2));
        const levels = [{ factor: 4, asked: 4, tries: x4Spec.map((s) => make(s, 4)) }];
        const sorted = sortByFactorGot(reference, levels, confirm);
        const all = (x: { higher: FactorTries[]; confirm: GateTry[] }) => [
          ...x.confirm,
          ...x.higher.flatMap((l) => l.tries),
        ];
        expect(all(sorted)).toHaveLength(confirm.length + levels[0]!.tries.length);
        for (const t of sorted.moved) {
          expect(t.state).toBe('failed');
          expect(sorted.higher.some((l) => l.factor === t.slowdown && l.tries.includes(t))).toBe(true);
        }
        const offCount = [...confirmSpec, ...x4Spec].filter((s) => s.failed && (s.ratio ?? 0) > OFF_FACTOR).length;
        expect(sorted.moved).toHaveLength(offCount);
        if (offCount === 0) {
          expect(sorted.confirm).toEqual(confirm);
          expect(sorted.higher).toEqual(levels);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('factorMeasured', () => {
  const measured = (slowdown: number | null): GateTry => ({ state: 'passed', durationMs: 5, slowdown });
  it('true when most of its tries have a measured factor, false when most were too short to measure', () => {
    expect(factorMeasured([measured(2), measured(2.1), measured(null)])).toBe(true);
    expect(factorMeasured([measured(null), measured(null), measured(2)])).toBe(false);
    expect(factorMeasured([])).toBe(false);
  });
});
