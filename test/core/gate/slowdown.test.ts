import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  achievedDuty,
  ambientFactor,
  CATCH_UP,
  correctGain,
  type DutyAccount,
  decideContention,
  describeAmbientExcess,
  describeShortfall,
  dutyFactorFor,
  EMPTY_DUTY_ACCOUNT,
  planCycle,
  recordCycle,
  stoppedWithin,
  trySlowdown,
  windowSlowdown,
} from '../../../src/core/gate/slowdown.js';

/** Runs the controller against timers that overshoot by a random slack (what setTimeout does). */
function simulate(duty: number, periodMs: number, slacks: readonly number[]): DutyAccount {
  let account = EMPTY_DUTY_ACCOUNT;
  for (const [i, slack] of slacks.entries()) {
    const plan = planCycle(account, duty, periodMs);
    const measured =
      i % 2 === 0
        ? { runMs: plan.runMs + slack, stopMs: plan.stopMs }
        : { runMs: plan.runMs, stopMs: plan.stopMs > 0 ? plan.stopMs + slack : 0 };
    account = recordCycle(account, duty, measured);
  }
  return account;
}

describe('dutyFactorFor', () => {
  it('adds only what the ambient slowdown does not give', () => {
    expect(dutyFactorFor(2, 1)).toBe(2);
    expect(dutyFactorFor(2, 1.25)).toBeCloseTo(1.6);
    expect(dutyFactorFor(2, 3)).toBe(1);
  });
  it('never speeds up, and duty x ambient reaches the target whenever ambient is below it', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 16, noNaN: true }),
        fc.double({ min: 1, max: 16, noNaN: true }),
        (target, ambient) => {
          const d = dutyFactorFor(target, ambient);
          expect(d).toBeGreaterThanOrEqual(1);
          expect(d * ambient).toBeCloseTo(Math.max(target, ambient), 6);
        },
      ),
    );
  });
});

describe('planCycle and recordCycle', () => {
  it('without slack, stops 1 - 1/duty of each period', () => {
    expect(planCycle(EMPTY_DUTY_ACCOUNT, 4, 20)).toEqual({ runMs: 5, stopMs: 15 });
    expect(planCycle(EMPTY_DUTY_ACCOUNT, 1, 20)).toEqual({ runMs: 20, stopMs: 0 });
  });
  it('a stop window that overran is paid back by a shorter next one', () => {
    const after = recordCycle(EMPTY_DUTY_ACCOUNT, 2, { runMs: 10, stopMs: 16 });
    expect(planCycle(after, 2, 20).stopMs).toBeCloseTo(10 - 3);
  });
  it('plans stay within CATCH_UP periods and never run longer than one', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1e5, noNaN: true }),
        fc.double({ min: 0, max: 1e5, noNaN: true }),
        fc.double({ min: 1, max: 20, noNaN: true }),
        (stopped, owed, duty) => {
          const p = planCycle({ wallMs: stopped + 1, stoppedMs: stopped, owedMs: owed }, duty, 20);
          expect(p.stopMs).toBeGreaterThanOrEqual(0);
          expect(p.stopMs).toBeLessThanOrEqual(20 * CATCH_UP);
          expect(p.runMs).toBeGreaterThanOrEqual(0);
          expect(p.runMs).toBeLessThanOrEqual(20);
          if (p.stopMs <= 20) expect(p.runMs + p.stopMs).toBeCloseTo(20, 9);
        },
      ),
    );
  });
  it('corrects timer slack: over many cycles the achieved duty is within 5% of the one asked', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1.2, max: 6, noNaN: true }),
        fc.array(fc.double({ min: 0, max: 4, noNaN: true }), { minLength: 200, maxLength: 400 }),
        (duty, slacks) => {
          const a = simulate(duty, 20, slacks);
          expect(Math.abs(achievedDuty(a.wallMs, a.stoppedMs) / duty - 1)).toBeLessThan(0.05);
        },
      ),
    );
  });
});

describe('measured factors', () => {
  it('ambient is (cpu + wait) / cpu, unknown when the task barely ran', () => {
    expect(ambientFactor(100e6, 50e6)).toBe(1.5);
    expect(ambientFactor(1e6, 50e6)).toBeNull();
  });
  it('stoppedWithin counts only the overlap, and adds up over a split window', () => {
    const stops = [
      { from: 0, to: 10 },
      { from: 20, to: 30 },
    ];
    expect(stoppedWithin(stops, 5, 25)).toBe(10);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(1000), fc.nat(50)), { maxLength: 30 }),
        fc.nat(2000),
        fc.nat(2000),
        fc.nat(2000),
        (raw, a, b, c) => {
          let at = 0;
          const list = raw.map(([gap, len]) => {
            const from = at + gap;
            at = from + len;
            return { from, to: at };
          });
          const [x, y, z] = [a, b, c].sort((p, q) => p - q) as [number, number, number];
          expect(stoppedWithin(list, x, y) + stoppedWithin(list, y, z)).toBe(stoppedWithin(list, x, z));
          expect(stoppedWithin(list, x, z)).toBeLessThanOrEqual(z - x);
        },
      ),
    );
  });
  it('a try slowdown is the duty times the ambient part', () => {
    expect(trySlowdown({ wallMs: 1000, stoppedMs: 500, cpuNs: 400e6, waitNs: 100e6 })).toBe(2.5);
    expect(trySlowdown({ wallMs: 1000, stoppedMs: 0, cpuNs: null, waitNs: null })).toBe(1);
    // Too short to measure its own: the ambient measured around it counts.
    expect(trySlowdown({ wallMs: 10, stoppedMs: 5, cpuNs: 1e6, waitNs: 0, around: 1.5 })).toBe(3);
    // Stops and run-queue wait overlapped: a CPU-bound try cannot have been slowed more than wall / cpu.
    expect(trySlowdown({ wallMs: 3000, stoppedMs: 2000, cpuNs: 1000e6, waitNs: 2000e6 })).toBe(3);
  });
});

describe('decideContention', () => {
  it('judges at the target, or at the ambient factor when the machine is already slower, and says so', () => {
    expect(decideContention(2, 1.1, 0)).toEqual({ target: 2, ambient: 1.1, reference: 2, method: 'duty-cycle' });
    const slow = decideContention(2, 3.4, 0);
    expect(slow.reference).toBe(3.4);
    expect(describeAmbientExcess(slow)).toContain('judges the tries at x3.4');
    expect(describeAmbientExcess(decideContention(2, 1.1, 0))).toBeNull();
    expect(decideContention(1, null, 2).method).toBe('busy-workers');
  });
});

describe('the controller check', () => {
  it('reads the factor from a CPU-bound task only', () => {
    expect(
      windowSlowdown(
        [
          { cpuNs: 100e6, waitNs: 100e6 },
          { cpuNs: 1e6, waitNs: 0 },
        ],
        500,
        300,
      ),
    ).toBe(5);
    // The busiest task slept most of the time: no reading.
    expect(windowSlowdown([{ cpuNs: 30e6, waitNs: 0 }], 500, 0)).toBeNull();
  });
  it('the gain moves toward the target and stays bounded', () => {
    expect(correctGain(1, 4, 2)).toBeCloseTo(2 ** 0.7);
    expect(correctGain(1, 4, null)).toBe(1);
    fc.assert(
      fc.property(
        fc.double({ min: 0.25, max: 8, noNaN: true }),
        fc.double({ min: 1, max: 32, noNaN: true }),
        fc.double({ min: 0.01, max: 100, noNaN: true }),
        (gain, target, measured) => {
          const next = correctGain(gain, target, measured);
          expect(next).toBeGreaterThanOrEqual(0.25);
          expect(next).toBeLessThanOrEqual(8);
          if (measured < target) expect(next).toBeGreaterThanOrEqual(gain);
          if (measured > target) expect(next).toBeLessThanOrEqual(gain);
        },
      ),
    );
  });
});

describe('describeShortfall', () => {
  it('warns only outside 20% of the reference', () => {
    expect(describeShortfall(2, 2.3)).toBeNull();
    expect(describeShortfall(8, 4.5)).toContain('below the reference x8');
    expect(describeShortfall(2, null)).toBeNull();
  });
});
