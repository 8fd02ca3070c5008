/**
 * The gate's targets: each selected test once per Vitest project its file runs in, the key that
 * finds a target in a run's outcome, and its tries as the verdict reads them.
 */
import type { GateTry } from '../../core/gate/runner-protocol.js';
import type { SelectedTest } from '../../core/gate/test-selection.js';
import type { SourceTest } from '../../core/source/test-source.js';
import { testKey } from '../../core/test-id.js';
import { type RepeatTarget, type TestTries, type TriesOutcome, targetKey } from '../../io/vitest/vitest-tries.js';

export interface GateTarget extends RepeatTarget {
  readonly project: string | null;
  readonly selected: SelectedTest<SourceTest>;
}

/** The tries of each target in the loaded phase's outcome (undefined: that outcome did not report it). */
export type TriesOf = ReadonlyMap<GateTarget, TestTries | undefined>;

/** A test's tries in one run's outcome (none when that run did not report it). */
export const triesIn = (t: TestTries | undefined): readonly GateTry[] => t?.tries ?? [];

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

/** Tries of each target gathered over several calls (the tries without slowdown, the alone tries). */
export type TryMap = Map<GateTarget, readonly GateTry[]>;

/** Adds each target's tries in a call's outcome to what it has. */
export function addTries(map: TryMap, targets: readonly GateTarget[], outcome: TriesOutcome | null): void {
  if (outcome === null) return;
  for (const t of targets) {
    const found = findTries(t, outcome);
    if (found === undefined || found.tries.length === 0) continue;
    map.set(t, [...(map.get(t) ?? []), ...found.tries]);
  }
}

const failed = (x: GateTry): boolean => x.state === 'failed' || x.state === 'hung';

/** It ran and failed (or hung in) a try. */
export const failedSome = (r: TestTries | undefined): boolean => r?.found === true && r.tries.some(failed);

/** It ran, and passed every try. */
export const passedAll = (r: TestTries | undefined): boolean =>
  r?.found === true && r.tries.length > 0 && r.tries.every((x) => x.state === 'passed');
