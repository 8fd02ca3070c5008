import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TEST_TIMEOUT_MS,
  gateDeadline,
  HANG_MARGIN_MS,
  tryCeilingMs,
} from '../../../src/core/gate/try-ceiling.js';

describe('tryCeilingMs', () => {
  it('is the test timeout x the slowdown plus the margin; no timeout counts as the default', () => {
    expect(tryCeilingMs(1000, 2)).toBe(2000 + HANG_MARGIN_MS);
    expect(tryCeilingMs(0, 1)).toBe(DEFAULT_TEST_TIMEOUT_MS + HANG_MARGIN_MS);
  });
  it('never below timeout x factor, and grows with both', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 600_000 }),
        fc.double({ min: 1, max: 32, noNaN: true }),
        fc.double({ min: 0, max: 4, noNaN: true }),
        (timeout, factor, more) => {
          expect(tryCeilingMs(timeout, factor)).toBeGreaterThanOrEqual(timeout * factor);
          expect(tryCeilingMs(timeout, factor + more)).toBeGreaterThanOrEqual(tryCeilingMs(timeout, factor));
        },
      ),
    );
  });
  it('the gate ends by the time budget plus one default try ceiling', () => {
    expect(gateDeadline(1000, 120_000, 2)).toBe(1000 + 120_000 + tryCeilingMs(0, 2));
  });
});
