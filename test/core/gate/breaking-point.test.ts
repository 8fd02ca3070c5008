import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/core/config.js';
import {
  applyBreakingPoint,
  escalationFactors,
  type FactorTries,
  findBreakingPoint,
} from '../../../src/core/gate/breaking-point.js';
import { parseGateConfig, parseSlowdown } from '../../../src/core/gate/gate-config.js';
import { decideGateVerdict } from '../../../src/core/gate/gate-verdict.js';
import type { GateTry } from '../../../src/core/gate/runner-protocol.js';

const pass: GateTry = { state: 'passed', durationMs: 10, cold: true };
const fail: GateTry = { state: 'failed', durationMs: 10, cold: true, error: 'AssertionError: too slow' };
const level = (factor: number, ...tries: GateTry[]): FactorTries => ({ factor, asked: factor, tries });
const limit = { limitMs: 5000, source: 'budget' as const, platformKey: 'all' };
const stable = decideGateVerdict({
  tries: [pass, pass, pass],
  loaded: true,
  condition: ' at x2',
  idle: null,
  alone: null,
  limit,
  warnAt: 0.8,
});

describe('escalationFactors', () => {
  it('2x and 4x the reference, within the maximum', () => {
    expect(escalationFactors(2)).toEqual([4, 8]);
    expect(escalationFactors(10)).toEqual([20, 32]);
    expect(escalationFactors(32)).toEqual([]);
  });
});

describe('findBreakingPoint', () => {
  it('holds up to the last factor before the first failure', () => {
    expect(findBreakingPoint([level(2, pass, pass), level(4, pass), level(8, fail, pass)])).toEqual({
      holdsAt: 4,
      breaksAt: 8,
    });
    expect(findBreakingPoint([level(2, pass), level(4, pass)])).toEqual({ holdsAt: 4, breaksAt: null });
    expect(findBreakingPoint([level(2, fail)])).toEqual({ holdsAt: null, breaksAt: 2 });
  });
  it('holdsAt is always below breaksAt, whatever the order the levels come in', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 32 }), fc.boolean()), { maxLength: 6 }), (raw) => {
        const p = findBreakingPoint(raw.map(([f, ok]) => level(f, ok ? pass : fail)));
        if (p.holdsAt !== null && p.breaksAt !== null) expect(p.holdsAt).toBeLessThan(p.breaksAt);
      }),
    );
  });
});

describe('applyBreakingPoint', () => {
  it('stable at the reference, failing higher: fragile, naming the factor', () => {
    const r = applyBreakingPoint(stable, level(2, pass, pass, pass), [level(4, pass, pass), level(8, fail, fail)]);
    expect(r).toMatchObject({ verdict: 'fragile', holdsAt: 4, breaksAt: 8, firstError: 'AssertionError: too slow' });
    expect(r.reason).toContain('failed 2 of 2 tries from x8.0 up, 0 of 5 below (one-sided Fisher p = 0.048)');
  });
  it('a test that broke higher but then failed again at the reference is flaky, not fragile', () => {
    const r = applyBreakingPoint(stable, level(2, pass, pass, pass), [level(4, fail, pass)], [pass, fail, pass]);
    expect(r).toMatchObject({ verdict: 'flaky', breaksAt: 2, holdsAt: null });
    expect(r.reason).toContain('then failed 1 of 3 more there');
    const again = [pass, pass, pass, pass, pass, pass];
    expect(applyBreakingPoint(stable, level(2, pass, pass, pass), [level(4, fail, fail)], again).verdict).toBe(
      'fragile',
    );
    // One failure higher, after passing everywhere else: too little to blame the factor, and no
    // evidence of a flake either (nothing failed at or below the reference): inconclusive, naming
    // the confirm tries it lacked.
    const weak = applyBreakingPoint(stable, level(2, pass), [level(4, fail)], again);
    expect(weak.verdict).toBe('inconclusive');
    expect(weak.reason).toContain('a possible limit or a flake, too few tries at x2.0 to tell');
    expect(weak.missing).toEqual([{ check: 'confirm', needed: 30, made: 6, for: 'verdict' }]);
  });
  it('held everywhere: stable, with how far it held', () => {
    expect(applyBreakingPoint(stable, level(2, pass), [level(4, pass), level(8, pass)])).toMatchObject({
      verdict: 'stable',
      holdsAt: 8,
      breaksAt: null,
    });
  });
  it('a budget or flake finding at the reference is never replaced by the higher factors', () => {
    const flaky = decideGateVerdict({ tries: [pass, fail], loaded: true, idle: null, alone: null, limit, warnAt: 0.8 });
    expect(applyBreakingPoint(flaky, level(2, pass, fail), [])).toMatchObject({ verdict: 'flaky', breaksAt: 2 });
    const over = decideGateVerdict({
      tries: [{ ...pass, durationMs: 6000 }],
      loaded: true,
      idle: null,
      alone: null,
      limit,
      warnAt: 0.8,
    });
    expect(applyBreakingPoint(over, level(2, pass), [level(4, fail)]).verdict).toBe('over-budget');
  });
});

describe('gate config', () => {
  it('gate.slowdown and gate.fragile from flakeguard.yaml; bad values name the fix', () => {
    expect(parseConfig('gate:\n  slowdown: 3\n  fragile: block\n', 'flakeguard.yaml').gate).toEqual({
      slowdown: 3,
      fragile: 'block',
    });
    expect(parseConfig('budget:\n  test: 1s\n', 'flakeguard.yaml').gate).toEqual({ slowdown: 2, fragile: 'warn' });
    expect(parseConfig('gate:\n  slowdown: auto\n', 'flakeguard.yaml').gate.slowdown).toBe('auto');
    expect(() => parseConfig('gate:\n  slowdown: fast\n', 'flakeguard.yaml')).toThrow(
      /flakeguard.yaml:2:13: gate.slowdown "fast" is not a factor; .*, or auto/,
    );
    expect(() => parseConfig('gate:\n  fragile: maybe\n', 'flakeguard.yaml')).toThrow(
      /gate.fragile "maybe" must be warn or block/,
    );
    expect(parseGateConfig).toBeTypeOf('function');
  });
  it('parseSlowdown takes 1..32, with or without a leading x', () => {
    expect(parseSlowdown('x4')).toBe(4);
    expect(parseSlowdown('0.9')).toBeNull();
    expect(parseSlowdown('')).toBeNull();
    fc.assert(
      fc.property(fc.double({ min: 1, max: 32, noNaN: true }), (f) => {
        expect(parseSlowdown(String(f))).toBe(f);
      }),
    );
  });
});
