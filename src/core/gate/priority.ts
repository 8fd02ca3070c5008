/**
 * When the machine is already slower than the target and no cgroup holds the workers (the signal
 * pacer: stopping a tree can only slow it, never speed it up), the gate may raise the paced
 * workers' priority so the tries get closer to the factor asked: a negative nice on the worker's
 * threads and its autogroup (io/load/priority.ts). Pure: the tree's running figures in, what to do
 * and how the report says it out.
 */
import type { PaceKind } from './slowdown.js';

/** The nice the workers get: weight 9548 against 1024 for nice 0 (about 9x, like the cgroup's cpu.shares 8192). */
export const RAISED_NICE = -10;
/** CPU a tree must have used in the window judged before its factor decides anything (a few ms say little). */
export const PRIORITY_MIN_CPU_MS = 100;
/** How far above the target a tree's running factor must be before its priority is raised (the +-10% the gate accepts). */
const RAISE_ABOVE = 1.1;

export interface PriorityFacts {
  readonly method: PaceKind;
  /** The factor asked for. */
  readonly target: number;
  /** The factor the worker's tree got in the last window (core/gate/pacer.ts tryFactor), or null when not measured. */
  readonly got: number | null;
  /** The CPU the tree used in that window. */
  readonly cpuMs: number;
  /** Why this process cannot lower a nice value (not root; or the error of a try that failed), or null when it may. */
  readonly refusal: string | null;
}

export type PriorityDecision =
  | { readonly kind: 'raise'; readonly nice: number; readonly weight: string }
  /** Nothing to do yet (or ever): not the signal pacer, the tree not measured yet, or it gets the target. */
  | { readonly kind: 'wait' }
  /** The machine is slower than the target but the priority cannot be raised: why, for methodWhy. */
  | { readonly kind: 'cannot'; readonly why: string };

const x = (f: number): string => `x${Number(f.toFixed(2))}`;

export function decidePriority(f: PriorityFacts): PriorityDecision {
  if (f.method !== 'signals' || f.target <= 1 || f.cpuMs < PRIORITY_MIN_CPU_MS) return { kind: 'wait' };
  if (f.got === null || f.got <= f.target * RAISE_ABOVE) return { kind: 'wait' };
  if (f.refusal !== null)
    return {
      kind: 'cannot',
      why: `the tries got ${x(f.got)} for ${x(f.target)} and the workers' priority could not be raised (${f.refusal})`,
    };
  return {
    kind: 'raise',
    nice: RAISED_NICE,
    weight: `nice ${RAISED_NICE} on the workers' threads and autogroup (about 9x the default weight): the tries got ${x(f.got)} for ${x(f.target)} before`,
  };
}
