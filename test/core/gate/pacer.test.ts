import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  blockedOf,
  CREDIT_CAP_MS,
  cgroupQuota,
  describeBlocked,
  describeFactor,
  measuredSpan,
  type PaceState,
  paceStep,
  phaseFactor,
  START_PACE,
  type TreeSample,
  tryFactor,
  tryFigures,
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
  it('gives a quota of period / F with a period of at least 4 ms and a quota of at least 1 ms', () => {
    expect(cgroupQuota(2)).toEqual({ quotaUs: 2000, periodUs: 4000 });
    expect(cgroupQuota(8)).toEqual({ quotaUs: 1000, periodUs: 8000 });
    fc.assert(
      fc.property(fc.double({ min: 1, max: 64, noNaN: true }), (f) => {
        const { quotaUs, periodUs } = cgroupQuota(f);
        expect(quotaUs).toBeGreaterThanOrEqual(1000);
        expect(periodUs).toBeGreaterThanOrEqual(4000);
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

/**
 * A 20 ms burst paced by a quota: `run` ms of CPU, then `held` ms throttled (run-queue wait), from
 * `at` on, until `cpuMs` of CPU; idle before and after. The tree's running totals at time t.
 */
function burstAt(burst: { at: number; cpuMs: number; run: number; held: number }, t: number): TreeSample {
  const { at, cpuMs, run, held } = burst;
  const into = Math.max(0, t - at);
  const cycles = Math.floor(into / (run + held));
  const rest = into - cycles * (run + held);
  const cpu = Math.min(cpuMs, cycles * run + Math.min(rest, run));
  // Once the CPU is done the burst ends: no wait after it.
  const wait = cpu >= cpuMs ? Math.ceil(cpuMs / run - 1) * held : cycles * held + Math.max(0, rest - run);
  return { t, cpuMs: cpu, waitMs: wait, stoppedMs: 0 };
}

const burstEnd = (b: { at: number; cpuMs: number; run: number; held: number }): number =>
  b.at + b.cpuMs + Math.ceil(b.cpuMs / b.run - 1) * b.held;

describe('measuredSpan and tryFigures: a try is measured over its test function', () => {
  it('takes the body’s span when the runner timed it, else the whole try', () => {
    const body = { startedAt: 1005, wallMs: 40, own: { cpuMs: 20, waitMs: 20 }, alone: true };
    expect(measuredSpan({ startedAt: 1000, durationMs: 60, body })).toEqual({ from: 1005, to: 1045 });
    expect(measuredSpan({ startedAt: 1000, durationMs: 60 })).toEqual({ from: 1000, to: 1060 });
  });

  it('uses the body’s own figures when its threads were the whole tree, the tree’s samples otherwise', () => {
    const tree = { wallMs: 40, cpuMs: 25, waitMs: 10, stoppedMs: 3 };
    const body = { startedAt: 0, wallMs: 40, own: { cpuMs: 20, waitMs: 18 }, alone: true };
    expect(tryFigures(body, tree)).toEqual({ wallMs: 40, cpuMs: 20, waitMs: 18, stoppedMs: 3 });
    // Processes ran below the worker, and the pacer did not tell them apart: the whole tree.
    expect(tryFigures({ ...body, alone: false }, tree)).toBe(tree);
    expect(tryFigures({ ...body, own: null }, tree)).toBe(tree);
    expect(tryFigures(undefined, null)).toBeNull();
    expect(tryFigures(body, null)).toEqual({ wallMs: 40, cpuMs: 20, waitMs: 18, stoppedMs: 0 });
  });

  it('gives a short paced burst its true factor wherever the pacer’s 10 ms ticks fall', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 10, noNaN: true }),
        fc.double({ min: 15, max: 30, noNaN: true }),
        fc.double({ min: 2, max: 6, noNaN: true }),
        fc.double({ min: 1, max: 3, noNaN: true }),
        (phase, cpuMs, run, factor) => {
          const burst = { at: 100 + phase, cpuMs, run, held: run * (factor - 1) };
          const end = burstEnd(burst);
          const truth = burstAt(burst, end);
          const series = Array.from({ length: 30 }, (_, i) => burstAt(burst, i * 10));
          const body = {
            startedAt: burst.at,
            wallMs: end - burst.at,
            own: { cpuMs: truth.cpuMs, waitMs: truth.waitMs },
            alone: true,
          };
          const span = measuredSpan({ durationMs: 0, body });
          const exact = (truth.cpuMs + truth.waitMs) / truth.cpuMs;
          const got = tryFactor(tryFigures(body, windowOf(series, span.from, span.to))).factor ?? 0;
          expect(got).toBeCloseTo(Math.max(1, exact), 1);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('adds the children’s samples over the body to the worker’s own reads when processes ran below it', () => {
    const body = { startedAt: 0, wallMs: 600, own: { cpuMs: 12, waitMs: 3 }, alone: false };
    // The whole tree's waits summed over every thread read high (x2.4); the children's part says x2.
    const tree = { wallMs: 600, cpuMs: 300, waitMs: 420, stoppedMs: 0, children: { cpuMs: 288, waitMs: 285 } };
    expect(tryFigures(body, tree)).toEqual({ wallMs: 600, cpuMs: 300, waitMs: 288, stoppedMs: 0 });
    expect(tryFactor(tryFigures(body, tree)).factor).toBe(1.96);
  });

  it('interpolates the children’s running totals at the body’s edges', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ min: 0, max: 20, noNaN: true }), fc.double({ min: 0, max: 20, noNaN: true })), {
          minLength: 2,
          maxLength: 40,
        }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (steps, a, b) => {
          // Running totals every 10 ms: the tree's CPU and wait are at least its children's.
          let cpu = 0;
          let wait = 0;
          const series: TreeSample[] = steps.map(([dc, dw], i) => {
            cpu += dc;
            wait += dw;
            return {
              t: i * 10,
              cpuMs: cpu * 2,
              waitMs: wait * 3,
              stoppedMs: 0,
              children: { cpuMs: cpu, waitMs: wait },
            };
          });
          const end = (steps.length - 1) * 10;
          const [from, to] = [Math.min(a, b) * end, Math.max(a, b) * end];
          const w = windowOf(series, from, to);
          const whole = windowOf(series, 0, end);
          // Non-negative, never more than the tree's part over the same span, additive over a split.
          expect(w?.children?.cpuMs).toBeGreaterThanOrEqual(-1e-9);
          expect(w?.children?.waitMs).toBeGreaterThanOrEqual(-1e-9);
          expect(w?.children?.cpuMs).toBeCloseTo((w?.cpuMs ?? 0) / 2, 6);
          const before = windowOf(series, 0, from);
          const after = windowOf(series, to, end);
          const sum = (before?.children?.cpuMs ?? 0) + (w?.children?.cpuMs ?? 0) + (after?.children?.cpuMs ?? 0);
          expect(sum).toBeCloseTo(whole?.children?.cpuMs ?? 0, 6);
          // A body's figures: its own reads plus exactly the children's part of the window.
          const body = { startedAt: from, wallMs: to - from, own: { cpuMs: 1, waitMs: 1 }, alone: false };
          const f = tryFigures(body, w);
          expect(f?.cpuMs).toBeCloseTo(1 + (w?.children?.cpuMs ?? 0), 6);
          expect(f?.waitMs).toBeCloseTo(1 + (w?.children?.waitMs ?? 0), 6);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('where the ticks alone misread one: 20 ms run 6 ms on, 6 ms held, from 4 ms after a tick', () => {
    const burst = { at: 104, cpuMs: 20, run: 6, held: 6 };
    const end = burstEnd(burst);
    const series = Array.from({ length: 30 }, (_, i) => burstAt(burst, i * 10));
    const truth = burstAt(burst, end);
    const body = { startedAt: burst.at, wallMs: end - burst.at, own: { cpuMs: 20, waitMs: truth.waitMs }, alone: true };
    expect(tryFactor(windowOf(series, burst.at, end)).factor).toBe(2.13);
    expect(tryFactor(tryFigures(body, windowOf(series, burst.at, end))).factor).toBe(1.9);
  });
});

describe('blockedOf and describeBlocked: the time a try was neither running, waiting nor stopped', () => {
  it('is wall - cpu - wait - stopped, never below 0, null without figures', () => {
    expect(blockedOf({ wallMs: 1200, cpuMs: 300, waitMs: 400, stoppedMs: 90 })).toBe(410);
    expect(blockedOf({ wallMs: 100, cpuMs: 80, waitMs: 40, stoppedMs: 0 })).toBe(0);
    expect(blockedOf(null)).toBeNull();
  });

  it('closes the gap between the factor and wall / cpu: slowdown + blocked / cpu = wall / cpu when nothing overlaps', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 5, max: 1e4, noNaN: true }),
        fc.double({ min: 0, max: 1e4, noNaN: true }),
        fc.double({ min: 0, max: 1e4, noNaN: true }),
        fc.double({ min: 0, max: 1e4, noNaN: true }),
        (cpuMs, waitMs, stoppedMs, blockedMs) => {
          const w = { wallMs: cpuMs + waitMs + stoppedMs + blockedMs, cpuMs, waitMs, stoppedMs };
          const factor = (cpuMs + waitMs + stoppedMs) / cpuMs;
          const blocked = blockedOf(w) ?? Number.NaN;
          expect(Math.abs(blocked - blockedMs)).toBeLessThan(0.1 + blockedMs * 1e-9);
          expect(factor + blocked / cpuMs).toBeCloseTo(w.wallMs / cpuMs, 1);
        },
      ),
    );
  });

  it('names a large blocked share of the test function, and not a small one', () => {
    const body = { startedAt: 0, wallMs: 1200, own: { cpuMs: 300, waitMs: 400 }, alone: true };
    expect(describeBlocked({ durationMs: 1300, body, blockedMs: 410 })).toBe(
      'blocked 410ms of 1.20s: the factor counts CPU and run-queue wait only',
    );
    expect(describeBlocked({ durationMs: 1300, body, blockedMs: 100 })).toBeNull();
    expect(describeBlocked({ durationMs: 100, blockedMs: 40 })).toBeNull();
    expect(describeBlocked({ durationMs: 1300, body })).toBeNull();
  });
});
