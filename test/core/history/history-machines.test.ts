import { describe, expect, it } from 'vitest';
import {
  describeTestMachines,
  type TestMachine,
  withTestMachines,
} from '../../../src/core/history/history-machines.js';
import { testKey } from '../../../src/core/test-id.js';

const machine = (id: string | null, runs: number, ciRuns = 0): TestMachine => ({
  id,
  cpuModel: id === null ? null : 'Example CPU',
  cores: id === null ? null : 8,
  runs,
  ciRuns,
});

describe('the machines a test ran on', () => {
  const test = { project: '', file: 'test/a.test.ts', fullName: 'a > works' };

  it('lists them most runs first, under the test they belong to', () => {
    const machines = new Map([[testKey(test), [machine('bbbbbbbbbbbb', 2), machine('aaaaaaaaaaaa', 5)]]]);
    const [withMachines] = withTestMachines([test, { ...test, project: 'edge' }], machines);
    expect(withMachines?.machines.map((m) => m.id)).toEqual(['aaaaaaaaaaaa', 'bbbbbbbbbbbb']);
    expect(withTestMachines([{ ...test, project: 'edge' }], machines)[0]?.machines).toEqual([]);
  });

  it('names the first three, counts the rest, and the runs with no machine recorded', () => {
    expect(
      describeTestMachines([
        machine('aaaaaaaaaaaa', 20),
        machine('bbbbbbbbbbbb', 5, 5),
        machine('cccccccccccc', 3, 1),
        machine('dddddddddddd', 1),
        machine(null, 4),
      ]),
    ).toBe(
      'ran on 4 machines: aaaaaaaaaaaa (Example CPU, 8 cores) 20 runs, bbbbbbbbbbbb (Example CPU, 8 cores) 5 runs, in CI, cccccccccccc (Example CPU, 8 cores) 3 runs, 1 in CI, and 1 more; 4 runs with no machine recorded',
    );
    expect(describeTestMachines([machine(null, 1)])).toBe('1 run with no machine recorded');
    expect(describeTestMachines([])).toBe('');
  });
});
