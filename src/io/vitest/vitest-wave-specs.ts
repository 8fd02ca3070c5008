/**
 * The order of a gate wave's files: the specifications of one wave, costliest first, and the
 * Vitest sequencer that keeps that order (Vitest's own would put last run's failures first).
 */
import type { TestProject, TestSpecification } from 'vitest/node';
import type { planWave } from '../../core/gate/try-schedule.js';
import { costliestFirst } from '../../core/gate/wave-order.js';
import type { VitestJob } from './vitest-job.js';
import type { WaveState } from './vitest-wave-state.js';

/** A Vitest sequencer that keeps the order it is given. */
export class GateOrder {
  sort<T>(files: T[]): Promise<T[]> {
    return Promise.resolve(files);
  }
  shard<T>(files: T[]): Promise<T[]> {
    return Promise.resolve(files);
  }
}

/**
 * The Vitest specifications of one wave: each planned file as many times as it has copies, in
 * core/gate/wave-order.ts's order, the costliest first (GateOrder keeps it).
 */
export function specsOfWave(
  plannedWave: ReturnType<typeof planWave>,
  job: VitestJob,
  projects: readonly (TestProject | undefined)[],
  state: WaveState,
): TestSpecification[] {
  const specs: TestSpecification[] = [];
  for (const f of costliestFirst(plannedWave, state)) {
    const index = Number(f.fileKey);
    const s = job.specs[index];
    const project = projects[index];
    if (!s || !project) continue;
    for (let c = 0; c < f.copies; c += 1)
      specs.push(
        s.lines === null ? project.createSpecification(s.file) : project.createSpecification(s.file, [...s.lines]),
      );
  }
  return specs;
}
