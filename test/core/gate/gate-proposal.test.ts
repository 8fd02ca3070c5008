import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { proposeAllowance } from '../../../src/core/gate/gate-proposal.js';
import { decideGateVerdict } from '../../../src/core/gate/gate-verdict.js';
import { makeInput, pass } from './gate-verdict-factories.js';

describe('proposeAllowance', () => {
  it('slowest try x 1.5 rounded up to 100ms, never below the budget, with figures', () => {
    // Property below: the proposed limit always puts the slowest try under warnAt.
    const r = decideGateVerdict(makeInput({ tries: [pass(700), pass(810), pass(720), pass(730), pass(760)] }));
    const p = proposeAllowance({ file: 'a.test.ts', fullName: 'x' }, r, 1000, 'linux', 2);
    expect(p).toMatchObject({ limitMs: 1300, platformKey: 'linux' });
    expect(p?.reason).toContain('slowest of 5 tries 810ms, median 730ms under load (2 busy workers) on linux');
    const small = decideGateVerdict(
      makeInput({ tries: [pass(500)], limit: { limitMs: 600, source: 'budget', platformKey: 'linux' } }),
    );
    expect(proposeAllowance({ file: 'a', fullName: 'y' }, small, 2000, 'linux', 0)?.limitMs).toBe(2000);
    expect(proposeAllowance({ file: 'a', fullName: 'z' }, decideGateVerdict(makeInput()), 1000, 'linux', 0)).toBeNull();
    // A low warnAt needs more headroom, or the test would be near its new limit at once.
    const low = decideGateVerdict(makeInput({ tries: [pass(600)], warnAt: 0.5 }));
    expect(proposeAllowance({ file: 'a', fullName: 'w' }, low, 1000, 'linux', 0)?.limitMs).toBe(1500);
  });
});

describe('proposeAllowance property', () => {
  it('a test under its proposed allowance is stable (below warnAt of the new limit)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 10, max: 100 }), (slowest, warnPct) => {
        const warnAt = warnPct / 100;
        const r = decideGateVerdict(
          makeInput({
            tries: [pass(slowest)],
            warnAt,
            limit: { limitMs: slowest, source: 'budget', platformKey: 'linux' },
          }),
        );
        const p = proposeAllowance({ file: 'a', fullName: 'p' }, r, 1, 'linux', 0);
        if (p === null) return true;
        const again = decideGateVerdict(
          makeInput({
            tries: [pass(slowest)],
            warnAt,
            limit: { limitMs: p.limitMs, source: 'allowance', platformKey: 'linux' },
          }),
        );
        return again.verdict === 'stable';
      }),
    );
  });
});
