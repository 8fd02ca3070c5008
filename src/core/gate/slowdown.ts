/**
 * What the gate's report says about its slowdown: the factor asked, how the test workers were
 * paced (io/load/pacer.ts; arithmetic in core/gate/pacer.ts) and why a better method did not run,
 * and the factor each phase's tries measurably got (CPU-weighted over the phase's tries). The
 * verdicts are judged at the measured factor; the asked one is named beside it when they differ.
 */
import { describeFactor } from './pacer.js';

/** How the test workers were paced: a cgroup quota, signals on CPU credit, measured only (factor 1), or not at all (no /proc). */
export type PaceKind = 'cgroup-v2' | 'cgroup-v1' | 'signals' | 'measure-only' | 'none';

/** One phase of the gate's tries: what it asked and what its tries got (null: none used enough CPU to measure). */
interface PhaseFactor {
  /** 'reference', 'x4', 'confirm', 'unthrottled' */
  readonly phase: string;
  readonly asked: number;
  readonly got: number | null;
}

export interface Contention {
  /** The factor asked for (--slowdown / gate.slowdown). */
  readonly target: number;
  /** What the reference tries were judged at: the factor they measurably got, else the target. */
  readonly reference: number;
  /** The factor the reference tries measurably got (CPU-weighted), or null. */
  readonly achieved: number | null;
  readonly method: PaceKind;
  /** Why a better method did not run (e.g. no writable cgroup), or null. */
  readonly methodWhy: string | null;
  /** What was done to the paced workers' CPU weight so the target is reached on a busy machine, or null. */
  readonly weight: string | null;
  /** Busy load workers started beside the tries (--workers). */
  readonly busyWorkers: number;
  /** Every phase's asked and measured factor. */
  readonly phases: readonly PhaseFactor[];
}

export interface ContentionFacts {
  readonly target: number;
  readonly method: PaceKind;
  readonly methodWhy: string | null;
  readonly weight: string | null;
  readonly busyWorkers: number;
  readonly phases: readonly PhaseFactor[];
}

export function decideContention(facts: ContentionFacts): Contention {
  const achieved = facts.phases.find((p) => p.phase === 'reference')?.got ?? null;
  return { ...facts, achieved, reference: achieved ?? facts.target };
}

/** The notice when the reference tries got far from the target (outside +-10%), else null. */
export function describeShortfall(c: Contention): string | null {
  if (c.achieved === null || c.target <= 1 || Math.abs(c.achieved / c.target - 1) <= 0.1) return null;
  const why =
    c.achieved > c.target
      ? 'the machine was already slower than the target (other load)'
      : 'the pacer could not hold the tries back as far as asked';
  const done = c.weight ? `; the paced workers' weight was raised (${c.weight})` : '';
  return `slowdown ${describeFactor(c.target, c.achieved)}: ${why}${done}; the verdicts are judged at x${c.achieved}, what the tries got`;
}

/** The one-line slowdown summary of the text report. */
export function formatContention(c: Contention): string {
  const how =
    c.method === 'none'
      ? `not paced (${c.methodWhy ?? 'no /proc schedstat'})`
      : `paced by ${c.method}${c.weight ? `, ${c.weight}` : ''}${c.methodWhy ? ` (${c.methodWhy})` : ''}`;
  const phases = c.phases.map((p) => `${p.phase} ${describeFactor(p.asked, p.got)}`).join('; ');
  return `slowdown: ${describeFactor(c.target, c.achieved)}, ${how}${phases ? `; phases: ${phases}` : ''}${c.busyWorkers > 0 ? `; ${c.busyWorkers} busy workers` : ''}`;
}
