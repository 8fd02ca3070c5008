import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ADJUST_ABOVE, durationAtAsked } from '../../../src/core/gate/judged-duration.js';

describe('durationAtAsked: a try that got more than asked, judged at the asked factor', () => {
  it('takes off the CPU work slowed beyond the asked factor: asked x2, got x3.2, 250 ms of CPU: 800 ms is 500 ms at x2', () => {
    expect(durationAtAsked({ durationMs: 800, cpuMs: 250, slowdown: 3.2 }, 2)).toBeCloseTo(500, 6);
  });

  it('leaves a try at the asked factor, within its noise, or without a figure as it is', () => {
    expect(durationAtAsked({ durationMs: 800, cpuMs: 250, slowdown: 2 }, 2)).toBe(800);
    expect(durationAtAsked({ durationMs: 800, cpuMs: 250, slowdown: 2 * ADJUST_ABOVE }, 2)).toBe(800);
    expect(durationAtAsked({ durationMs: 800, cpuMs: 250, slowdown: null }, 2)).toBe(800);
    expect(durationAtAsked({ durationMs: 800, slowdown: 3.2 }, 2)).toBe(800);
  });

  it('never makes a try longer, never takes off more than if the whole try were CPU work, and takes off more the more it got', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 10_000, noNaN: true }),
        fc.double({ min: 0, max: 1.5, noNaN: true }),
        fc.double({ min: 1, max: 32, noNaN: true }),
        fc.double({ min: 1, max: 32, noNaN: true }),
        fc.double({ min: 0, max: 5, noNaN: true }),
        (durationMs, cpuShare, asked, got, more) => {
          const cpuMs = durationMs * cpuShare;
          const judged = durationAtAsked({ durationMs, cpuMs, slowdown: got }, asked);
          expect(judged).toBeLessThanOrEqual(durationMs);
          expect(judged).toBeGreaterThanOrEqual((durationMs * asked) / Math.max(asked, got) - 1e-9);
          if (got <= asked * ADJUST_ABOVE) expect(judged).toBe(durationMs);
          const higher = durationAtAsked({ durationMs, cpuMs, slowdown: got + more }, asked);
          if (got > asked * ADJUST_ABOVE) expect(higher).toBeLessThanOrEqual(judged + 1e-9);
        },
      ),
      { numRuns: 500 },
    );
  });
});
