import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CREDIT_CAP_MS,
  cgroupQuota,
  describeFactor,
  type PaceState,
  paceStep,
  phaseFactor,
  START_PACE,
  tryFactor,
  windowOf,
} from '../../../src/core/gate/pacer.js';

interface Machine {
  /** The tree's CPU share when it runs (other load takes the rest). */
  readonly share: number;
  /** Extra share the scheduler gives a task in the tick after a stop (its lag given back). */
  readonly giveBack: number;
  /** Each tick's lateness over the 5 ms asked, as a fraction of it, cycled. */
  readonly lateness: readonly number[];
}

/** The pacer against a simulated scheduler for `wallMs`: the tree's cpu / wall. */
function simulate(machine: Machine, factor: number, wallMs: number): number {
  let state: PaceState = START_PACE;
  let wall = 0;
  let cpu = 0;
  let justResumed = false;
  for (let i = 0; wall < wallMs; i += 1) {
    const dt = 5 * (1 + (machine.lateness[i % machine.lateness.length] ?? 0));
    const share = state.stopped ? 0 : Math.min(1, machine.share + (justResumed ? machine.giveBack : 0));
    const used = share * dt;
    wall += dt;
    cpu += used;
    const next = paceStep(state, dt, used, factor);
    justResumed = state.stopped && !next.stopped;
    state = next;
  }
  return cpu / wall;
}

describe('paceStep', () => {
  it('stops a tree below zero credit and lets it run again at zero', () => {
    const over = paceStep(START_PACE, 10, 10, 2);
    expect(over).toEqual({ creditMs: -5, stopped: true });
    expect(paceStep(over, 10, 0, 2)).toEqual({ creditMs: 0, stopped: false });
  });

  it('banks at most the cap while a tree sleeps, and never stops at factor 1', () => {
    expect(paceStep(START_PACE, 1000, 0, 2).creditMs).toBe(CREDIT_CAP_MS);
    expect(paceStep(START_PACE, 1, 500, 1).stopped).toBe(false);
  });

  it('holds cpu/wall within 10% of min(share, 1/F) against a scheduler that gives time back and timers that run late', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.1, max: 1, noNaN: true }),
        fc.double({ min: 1, max: 8, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.array(fc.double({ min: 0, max: 3, noNaN: true }), { minLength: 1, maxLength: 20 }),
        (share, factor, giveBack, lateness) => {
          const got = simulate({ share, giveBack, lateness }, factor, 20_000);
          const want = Math.min(share, 1 / factor);
          expect(Math.abs(got / want - 1)).toBeLessThanOrEqual(0.1);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('cgroupQuota', () => {
  it('gives a quota of period / F with a period of at least 10 ms and a quota of at least 1 ms', () => {
    expect(cgroupQuota(2)).toEqual({ quotaUs: 5000, periodUs: 10_000 });
    fc.assert(
      fc.property(fc.double({ min: 1, max: 64, noNaN: true }), (f) => {
        const { quotaUs, periodUs } = cgroupQuota(f);
        expect(quotaUs).toBeGreaterThanOrEqual(1000);
        expect(periodUs).toBeGreaterThanOrEqual(10_000);
        expect(Math.abs(periodUs / quotaUs / f - 1)).toBeLessThan(0.05);
      }),
    );
  });
});

describe('tryFactor and phaseFactor', () => {
  it('is (cpu + wait + stopped) / cpu, or says the try was too short to measure', () => {
    expect(tryFactor({ wallMs: 1000, cpuMs: 100, waitMs: 60, stoppedMs: 40 })).toEqual({ factor: 2, note: null });
    // Stopped and waiting overlapped (a stop waits for its task to run): at most wall / cpu.
    expect(tryFactor({ wallMs: 300, cpuMs: 100, waitMs: 200, stoppedMs: 200 })).toEqual({ factor: 3, note: null });
    expect(tryFactor({ wallMs: 20, cpuMs: 2.04, waitMs: 9, stoppedMs: 0 })).toEqual({
      factor: null,
      note: 'too short to measure (2.0 ms of CPU)',
    });
    expect(tryFactor(null).factor).toBeNull();
  });

  it('weighs each try by its CPU and skips the unmeasured ones', () => {
    expect(
      phaseFactor([
        { cpuMs: 300, slowdown: 2 },
        { cpuMs: 100, slowdown: 4 },
        { cpuMs: 1, slowdown: null },
        { slowdown: 8 },
      ]),
    ).toBe(2.5);
    expect(phaseFactor([{ cpuMs: 1, slowdown: null }])).toBeNull();
  });

  it('lies between the smallest and largest try factor', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            cpuMs: fc.double({ min: 5, max: 1e4, noNaN: true }),
            slowdown: fc.double({ min: 1, max: 20, noNaN: true }),
          }),
          {
            minLength: 1,
          },
        ),
        (tries) => {
          const f = phaseFactor(tries) ?? 0;
          expect(f).toBeGreaterThanOrEqual(Math.min(...tries.map((t) => t.slowdown)) - 0.01);
          expect(f).toBeLessThanOrEqual(Math.max(...tries.map((t) => t.slowdown)) + 0.01);
        },
      ),
    );
  });

  it('names the asked factor beside the measured one when they differ by more than 10%', () => {
    expect(describeFactor(2, 2.1)).toBe('x2.1');
    expect(describeFactor(2, 2.6)).toBe('asked x2, tries got x2.6');
    expect(describeFactor(2, null)).toBe('x2 (asked; not measured)');
  });
});

describe('windowOf', () => {
  it('interpolates a tree’s running totals at both ends of a try', () => {
    const series = [
      { t: 0, cpuMs: 0, waitMs: 0, stoppedMs: 0 },
      { t: 10, cpuMs: 5, waitMs: 1, stoppedMs: 4 },
      { t: 20, cpuMs: 10, waitMs: 2, stoppedMs: 8 },
    ];
    expect(windowOf(series, 5, 15)).toEqual({ wallMs: 10, cpuMs: 5, waitMs: 1, stoppedMs: 4 });
    expect(windowOf([], 0, 1)).toBeNull();
    expect(windowOf(undefined, 0, 1)).toBeNull();
  });
});
