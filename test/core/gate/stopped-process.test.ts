import { describe, expect, it } from 'vitest';
import type { ProcStat } from '../../../src/core/gate/proc-text.js';
import { stoppedInTree } from '../../../src/core/gate/stopped-process.js';

const stat = (ppid: number, state = 'S'): ProcStat => ({ state, ppid, pgid: 1, cpuMs: 0, childCpuMs: 0 });

describe('stoppedInTree (issue 48, finding 12)', () => {
  // 10 the guard, 11 Vitest, 12 and 13 its workers, 14 a process test 12 started.
  const table = (states: Record<number, string>): Map<number, ProcStat> =>
    new Map([
      [1, stat(0)],
      [10, stat(1, states[10])],
      [11, stat(10, states[11])],
      [12, stat(11, states[12])],
      [13, stat(11, states[13])],
      [14, stat(12, states[14])],
      [20, stat(1, 'T')],
    ]);
  const workers = new Set([12, 13]);

  it('Vitest or a worker stopped (T, or t under a tracer) is found; a process outside the tree is not', () => {
    expect(stoppedInTree(10, table({ 11: 'T' }), workers)).toEqual([11]);
    expect(stoppedInTree(10, table({ 13: 't' }), workers)).toEqual([13]);
    expect(stoppedInTree(10, table({}), workers)).toEqual([]);
  });

  it('a process a test started, below its worker, is left to the test', () => {
    expect(stoppedInTree(10, table({ 14: 'T' }), workers)).toEqual([]);
  });
});
