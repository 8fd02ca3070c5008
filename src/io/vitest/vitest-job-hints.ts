/**
 * A gate call's cost hints (what an earlier call measured of each target) by the indexes of its
 * Vitest job (vitest-job.ts `hints`): the child plans a first wave of one cold try and warm repeats
 * from them (core/gate/try-schedule.ts).
 */
import type { TryOptions } from './tries-types.js';
import { targetKey } from './tries-types.js';
import type { JobTest, VitestJob } from './vitest-job.js';

/** The call's cost hints by the job's indexes: each test's mean try, each spec's cold cost (the most any of its tests says). */
export function jobHints(
  options: Pick<TryOptions, 'tests'>,
  hints: NonNullable<TryOptions['costHints']>,
  tests: readonly JobTest[],
  specCount: number,
): NonNullable<VitestJob['hints']> {
  const specMs: (number | null)[] = Array.from({ length: specCount }, () => null);
  const testMs = options.tests.map((t, i) => {
    const h = hints.get(targetKey(t));
    const spec = tests[i]?.spec;
    if (h === undefined || spec === undefined) return null;
    specMs[spec] = Math.max(specMs[spec] ?? 0, h.fileMs);
    return h.testMs;
  });
  return { testMs, specMs };
}
