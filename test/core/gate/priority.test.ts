import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decidePriority, PRIORITY_MIN_CPU_MS, RAISED_NICE } from '../../../src/core/gate/priority.js';

const facts = { method: 'signals' as const, target: 2, got: 2.6, cpuMs: 400, refusal: null };

describe('decidePriority', () => {
  it('raises the signal-paced workers when their tree got more than 10% above the target', () => {
    expect(decidePriority(facts)).toEqual({
      kind: 'raise',
      nice: RAISED_NICE,
      weight:
        "nice -10 on the workers' threads and autogroup (about 9x the default weight): the tries got x2.6 for x2 before",
    });
  });

  it('says why it cannot when this process may not lower a nice', () => {
    expect(decidePriority({ ...facts, refusal: 'not root: a negative nice needs root or CAP_SYS_NICE' })).toEqual({
      kind: 'cannot',
      why: "the tries got x2.6 for x2 and the workers' priority could not be raised (not root: a negative nice needs root or CAP_SYS_NICE)",
    });
  });

  it('waits: a cgroup (its weight is raised already), no slowdown, too little CPU, or the target reached', () => {
    expect(decidePriority({ ...facts, method: 'cgroup-v1' })).toEqual({ kind: 'wait' });
    expect(decidePriority({ ...facts, method: 'measure-only', target: 1 })).toEqual({ kind: 'wait' });
    expect(decidePriority({ ...facts, cpuMs: PRIORITY_MIN_CPU_MS - 1 })).toEqual({ kind: 'wait' });
    expect(decidePriority({ ...facts, got: null })).toEqual({ kind: 'wait' });
    expect(decidePriority({ ...facts, got: 2.2 })).toEqual({ kind: 'wait' });
  });

  it('acts only on a signal-paced tree measurably more than 10% slower than the target', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('signals' as const, 'cgroup-v1' as const, 'cgroup-v2' as const, 'measure-only' as const),
        fc.double({ min: 1, max: 8, noNaN: true }),
        fc.option(fc.double({ min: 1, max: 30, noNaN: true }), { nil: null }),
        fc.double({ min: 0, max: 1000, noNaN: true }),
        fc.option(fc.constant('not root'), { nil: null }),
        (method, target, got, cpuMs, refusal) => {
          const d = decidePriority({ method, target, got, cpuMs, refusal });
          const slower =
            method === 'signals' && target > 1 && cpuMs >= PRIORITY_MIN_CPU_MS && got !== null && got > target * 1.1;
          expect(d.kind).toBe(slower ? (refusal === null ? 'raise' : 'cannot') : 'wait');
        },
      ),
    );
  });
});
