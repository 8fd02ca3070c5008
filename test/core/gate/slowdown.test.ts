import { describe, expect, it } from 'vitest';
import {
  type ContentionFacts,
  decideContention,
  describeShortfall,
  formatContention,
} from '../../../src/core/gate/slowdown.js';

const facts = (got: number | null, more: Partial<ContentionFacts> = {}): ContentionFacts => ({
  target: 2,
  method: 'cgroup-v1',
  methodWhy: 'no cgroup v2 mount',
  weight: 'cpu.shares 8192 (8x the default)',
  busyWorkers: 0,
  phases: [
    { phase: 'reference', asked: 2, got },
    { phase: 'x4', asked: 4, got: 4.2 },
  ],
  ...more,
});

describe('decideContention', () => {
  it('judges at what the reference tries measurably got, else at the target', () => {
    expect(decideContention(facts(2.6))).toMatchObject({ target: 2, achieved: 2.6, reference: 2.6 });
    expect(decideContention(facts(null))).toMatchObject({ achieved: null, reference: 2 });
  });
});

describe('describeShortfall', () => {
  it('names asked and got when they differ by more than 10%, and what was done to the weight', () => {
    expect(describeShortfall(decideContention(facts(2.1)))).toBeNull();
    const slow = describeShortfall(decideContention(facts(2.6))) ?? '';
    expect(slow).toContain('asked x2, tries got x2.6');
    expect(slow).toContain('cpu.shares 8192');
    expect(slow).toContain('judged at x2.6');
    expect(describeShortfall(decideContention(facts(1.5, { weight: null })))).toContain('could not hold');
    expect(describeShortfall(decideContention(facts(null)))).toBeNull();
  });
});

describe('formatContention', () => {
  it('says the method, why the better one did not run, and every phase', () => {
    expect(formatContention(decideContention(facts(2.6)))).toBe(
      'slowdown: asked x2, tries got x2.6, paced by cgroup-v1, cpu.shares 8192 (8x the default) (no cgroup v2 mount); phases: reference asked x2, tries got x2.6; x4 x4.2',
    );
    expect(
      formatContention(
        decideContention(
          facts(null, { method: 'none', methodWhy: 'no /proc schedstat on this machine', weight: null, phases: [] }),
        ),
      ),
    ).toBe('slowdown: x2 (asked; not measured), not paced (no /proc schedstat on this machine)');
  });
});
