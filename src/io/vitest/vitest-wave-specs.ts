/**
 * The order of a gate wave's files: the specifications of one wave, costliest first, and the
 * Vitest sequencer that keeps that order (Vitest's own would put last run's failures first).
 */
import type { TestProject, TestSpecification } from 'vitest/node';
import type { planWave } from '../../core/gate/try-schedule.js';
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
 * The Vitest specifications of one wave: each planned file as many times as it has copies, the
 * costliest first (its cold cost and its repeats, as the waves so far measured them; a file not yet
 * measured first of all, in the plan's order), so the longest worker starts first and no worker
 * waits on a slow file started last (GateOrder keeps this order).
 */
export function specsOfWave(
  plannedWave: ReturnType<typeof planWave>,
  job: VitestJob,
  projects: readonly (TestProject | undefined)[],
  state: WaveState,
): TestSpecification[] {
  const mean = (key: string): number => {
    const t = state.tally.get(key);
    const n = t ? t.passed + t.failed : 0;
    return n === 0 ? 0 : (state.spentMs.get(key) ?? 0) / n;
  };
  const planned = plannedWave.map((f) => {
    const cold = state.costMs.get(f.fileKey);
    const repeats = [...(f.repeats ?? [])].reduce((sum, [key, r]) => sum + r * mean(key), 0);
    return { ...f, estimate: cold === undefined ? Number.POSITIVE_INFINITY : cold + repeats };
  });
  const ordered = planned.map((f, i) => ({ f, i })).sort((a, b) => b.f.estimate - a.f.estimate || a.i - b.i);
  const specs: TestSpecification[] = [];
  for (const { f } of ordered) {
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
