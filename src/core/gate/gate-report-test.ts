/**
 * One test in the gate's report: what the gate decided about it from its tries (gate-verdict.ts,
 * breaking-point.ts), with where it is and why it was selected, as the JSON prints it. Pure.
 */

import type { CauseFinding } from '../cause/cause.js';
import { describeFailureRate } from '../failure-rate.js';
import type { TestPast } from '../history/test-history-summary.js';
import type { GateReplay } from '../replay/gate-replay.js';
import type { TestId } from '../test-id.js';
import { describeMissingCheck } from './gate-evidence.js';
import type { GateTestResult, GateVerdict } from './gate-verdict.js';
import type { GateTry } from './runner-protocol.js';
import type { SelectionKind } from './test-selection.js';

/** Where a changed test was before the change (its file and full name at the base). */
type Previous = Pick<TestId, 'file' | 'fullName'>;

export interface GateTestInput extends Omit<TestId, 'project'> {
  readonly line: number;
  /** The Vitest project it ran in ('' unnamed; null or absent: the only, unnamed one; a file in two runs in each). */
  readonly project?: string | null;
  readonly selection: SelectionKind;
  readonly previous: Previous | null;
  /** `affected`: the changed modules its file imports (directly or through others). */
  readonly affectedBy?: readonly string[];
  readonly result: GateTestResult;
  /** Why it is flaky, fragile or order-dependent (core/gate/gate-cause.ts); absent for the others. */
  readonly cause?: CauseFinding;
  /** The checks not made, as the report says them with what would have allowed them (default: result.missing described). */
  readonly missing?: readonly string[];
  /** The replay of a flaky verdict and what the gate's replay row saw (core/replay/gate-replay.ts); absent or null: none. */
  readonly replay?: GateReplay | null;
}

export interface GateReportTest extends Omit<TestId, 'project'> {
  readonly line: number;
  /** The Vitest project's name, '' for an unnamed one (never null: the gate knows where it ran each try). */
  readonly project: string;
  readonly selection: SelectionKind;
  readonly previous: Previous | null;
  /** For `affected` tests: the changed modules the file imports; else empty. */
  readonly affectedBy: readonly string[];
  readonly verdict: GateVerdict;
  readonly loadSensitive: boolean;
  readonly passes: number;
  readonly tryCount: number;
  /** Each try of the reference phase, in order: state, duration, CPU, cold (a fresh worker, as in CI), the factor it got, its error. */
  readonly tries: readonly GateTry[];
  readonly medianMs: number | null;
  readonly maxMs: number | null;
  readonly limitMs: number;
  readonly limitSource: 'budget' | 'allowance';
  readonly allowanceId: string | null;
  /** One-sided 95% Clopper-Pearson upper bound on the failure rate, from the loaded tries. */
  readonly failureRateUpper: number | null;
  readonly failureRateText: string | null;
  readonly idle: { readonly passes: number; readonly tryCount: number } | null;
  readonly alone: { readonly passes: number; readonly tryCount: number } | null;
  /** Its file once with its tests in reverse order (the order check before alone); absent: not tried (and in older reports). */
  readonly reversed?: { readonly passes: number; readonly tryCount: number };
  readonly reason: string;
  /** Highest slowdown factor with every try passed, lowest with a failed try (null: none failed / not tried). */
  readonly holdsAt?: number | null;
  readonly breaksAt?: number | null;
  readonly error: string | null;
  /** The test's past from the history store, when one is configured and knows the test. */
  readonly history?: TestPast;
  /** Its owners from the repository's CODEOWNERS (empty: none, or no CODEOWNERS). */
  readonly owners?: readonly string[];
  /** Why it is not stable; null for stable and budget verdicts (absent in older reports). */
  readonly cause?: CauseFinding | null;
  /**
   * The checks its verdict or cause needed that the time budget cut, each with what would have
   * allowed it (core/gate/gate-evidence.ts); empty when every check was made (absent in older reports).
   */
  readonly missing?: readonly string[];
  /**
   * The replay of a flaky verdict (its seed, the lowest factor it failed at, a fresh worker, or
   * alone, by its cause) with `reproduced` "k/n" of the replay row's tries, null when the row did
   * not run it; null: none (absent in older reports).
   */
  readonly replay?: GateReplay | null;
}

/** A test's line in the report, from its place and its result. */
export function toReportTest(t: GateTestInput): GateReportTest {
  const r = t.result;
  return {
    file: t.file,
    fullName: t.fullName,
    line: t.line,
    project: t.project ?? '',
    selection: t.selection,
    previous: t.previous,
    affectedBy: t.affectedBy ?? [],
    verdict: r.verdict,
    loadSensitive: r.loadSensitive,
    passes: r.passes,
    tryCount: r.tryCount,
    tries: r.tries,
    medianMs: r.medianMs,
    maxMs: r.maxMs,
    limitMs: r.limit.limitMs,
    limitSource: r.limit.source,
    allowanceId: r.limit.allowanceId ?? null,
    failureRateUpper: r.failureRate ? Math.round(r.failureRate.upper * 10_000) / 10_000 : null,
    failureRateText: r.failureRate ? describeFailureRate(r.failureRate) : null,
    idle: r.idle,
    alone: r.alone,
    ...(r.reversed ? { reversed: r.reversed } : {}),
    reason: r.reason,
    holdsAt: r.holdsAt ?? null,
    breaksAt: r.breaksAt ?? null,
    error: r.firstError,
    cause: t.cause ?? null,
    missing: t.missing ?? r.missing.map(describeMissingCheck),
    replay: t.replay ?? null,
  };
}
