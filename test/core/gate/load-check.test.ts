import { describe, expect, it } from 'vitest';
import type { GateLoad } from '../../../src/core/gate/gate-report.js';
import { describeLoadShortfall } from '../../../src/core/gate/load-check.js';

const load = (over: Partial<GateLoad>): GateLoad => ({
  workers: 2,
  pids: [1, 2],
  cpus: 2,
  loadavgBefore: null,
  loadavgAfter: null,
  workersMachineShare: 0.9,
  testsCpuShare: 0.5,
  ...over,
});

describe('describeLoadShortfall', () => {
  it('says nothing when the workers got the share asked, or when nothing was asked or measured', () => {
    expect(describeLoadShortfall(load({}))).toBeNull();
    expect(describeLoadShortfall(load({ workers: 0, workersMachineShare: null }))).toBeNull();
    expect(describeLoadShortfall(load({ workersMachineShare: null }))).toBeNull();
    expect(describeLoadShortfall(load({ workers: 1, workersMachineShare: 0.3 }))).toBeNull();
  });

  it('warns with both figures when the load got under half of what was asked', () => {
    expect(describeLoadShortfall(load({ workersMachineShare: 0.2 }))).toMatch(
      /should take about 100% of the machine, they got 20%/,
    );
    expect(describeLoadShortfall(load({ workers: 8, workersMachineShare: 0.45 }))).toMatch(/8 busy workers on 2 CPUs/);
  });
});
