/**
 * The gate's targets: each selected test once per Vitest project its file runs in, the key that
 * finds a target in a run's outcome, and its tries as the verdict reads them.
 */
import type { SelectedTest } from '../../core/gate/test-selection.js';
import type { SourceTest } from '../../core/source/test-source.js';
import { testKey } from '../../core/test-id.js';
import { type RepeatTarget, type TestTries, type TriesOutcome, targetKey } from '../../io/vitest/vitest-tries.js';

export interface GateTarget extends RepeatTarget {
  readonly project: string | null;
  readonly selected: SelectedTest<SourceTest>;
}

/** A target's tries in one run's outcome: undefined when that run did not happen or did not report it. */
export function findTries(target: GateTarget, outcome: TriesOutcome | null): TestTries | undefined {
  return new Map((outcome?.tests ?? []).map((t) => [testKey(t), t])).get(targetKey(target));
}

/** Every selected test once per Vitest project its file runs in ('' = the only, unnamed one). */
export function expandTargets(
  selected: readonly SelectedTest<SourceTest>[],
  projectsOf: ReadonlyMap<string, readonly string[]>,
): GateTarget[] {
  return selected.flatMap((s) => {
    const projects = projectsOf.get(s.test.file) ?? [''];
    return projects.map((p) => ({
      file: s.test.file,
      fullName: s.test.fullName,
      line: s.test.line,
      project: p === '' && projects.length === 1 ? null : p,
      selected: s,
    }));
  });
}
