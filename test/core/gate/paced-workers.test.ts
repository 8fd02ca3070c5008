import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_PER_CORE, pacedWorkers, vitestDefaultWorkers } from '../../../src/core/gate/paced-workers.js';

describe('pacedWorkers', () => {
  it('fills three quarters of the free cores at the asked factor', () => {
    expect(pacedWorkers({ cores: 2, factor: 2, busyWorkers: 0 })).toBe(3);
    expect(pacedWorkers({ cores: 8, factor: 2, busyWorkers: 0 })).toBe(12);
    expect(pacedWorkers({ cores: 2, factor: 4, busyWorkers: 0 })).toBe(6);
  });

  it("keeps Vitest's default without slowdown, or where it is as many", () => {
    expect(pacedWorkers({ cores: 2, factor: 1, busyWorkers: 0 })).toBeNull();
    expect(pacedWorkers({ cores: 2, factor: Number.NaN, busyWorkers: 0 })).toBeNull();
    // One free core at x1.5: 1 worker, Vitest's own count on 2 cores.
    expect(pacedWorkers({ cores: 2, factor: 1.5, busyWorkers: 1 })).toBeNull();
  });

  it('leaves the cores the busy workers take', () => {
    // 2 free cores at x2: 3 workers, Vitest's own count on 4 cores.
    expect(pacedWorkers({ cores: 4, factor: 2, busyWorkers: 2 })).toBeNull();
    // 4 free cores at x2: 6 workers, fewer than Vitest's 7 on 8 cores.
    expect(pacedWorkers({ cores: 8, factor: 2, busyWorkers: 4 })).toBeNull();
    expect(pacedWorkers({ cores: 8, factor: 4, busyWorkers: 4 })).toBe(12);
  });

  it('is never below the default, nor above MAX_PER_CORE per core', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 128 }),
        fc.double({ min: 1, max: 100, noNaN: true }),
        fc.integer({ min: 0, max: 256 }),
        (cores, factor, busyWorkers) => {
          const n = pacedWorkers({ cores, factor, busyWorkers });
          if (n === null) return;
          expect(Number.isInteger(n)).toBe(true);
          expect(n).toBeGreaterThan(vitestDefaultWorkers(cores));
          expect(n).toBeLessThanOrEqual(MAX_PER_CORE * cores);
        },
      ),
    );
  });
});
