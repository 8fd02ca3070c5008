/**
 * The data triage works on. The edges (src/io) turn run records, Vitest JSON reports, JUnit XML,
 * the CI log and re-runs into these plain observations; `computeTriage` (pure) turns them into a
 * TriageReport that the formatters print. Schema of the JSON output: docs/triage.md.
 */
import type { CauseFinding } from '../cause/cause.js';

import type { CaughtBy } from '../record/ci-context.js';
import type { AttemptRef } from './log-attempts.js';
import type { FindingClass } from './triage-config.js';
import type { TriageHistory } from './triage-history-facts.js';

/** 2: a finding's full name is `fullName` (was `test`) and its Vitest project is `project`. */
export const TRIAGE_VERSION = 2 as const;
/** What `triage --json`'s `format` says (schemas/triage.schema.json). */
export const TRIAGE_FORMAT = 'flakeguard-triage' as const;

export type { CaughtBy } from '../record/ci-context.js';

export type ObservedState = 'passed' | 'failed' | 'skipped' | 'pending';
export type ObservationSource = 'record' | 'report' | 'junit' | 'log';

/** One test (or a suite/file-level failure when `kind` says so) as one input saw it. */
export interface ObservedTest {
  readonly kind: 'test' | 'suite' | 'file';
  /**
   * The Vitest project ('' unnamed), or null where the input cannot say (a JSON report, JUnit, a
   * log line without `|name|`, a record written before projects): merged into the one project
   * that has the test (triage-merge.ts).
   */
  readonly project: string | null;
  /** Relative to the root with `/`, or null when the input did not say (salvaged entries). */
  readonly file: string | null;
  /** Full name joined with ' > '; for kind 'file' the empty string. */
  readonly fullName: string;
  readonly line: number | null;
  readonly state: ObservedState;
  readonly durationMs: number | null;
  /** Error messages, first line first. A passed test with errors passed on a retry. */
  readonly errors: readonly string[];
  /** The limit the reporter applied (records only). */
  readonly limitMs: number | null;
  readonly source: ObservationSource;
  /** Where this came from, for evidence: `report r.json: testResults[2]`. */
  readonly origin: string;
  /** The attempts that failed, when the input names them (Vitest 5's FAIL line labels). */
  readonly failedAttempts?: readonly AttemptRef[];
  /** Under a quarantine that applied in the run (the record says so): its failure fails nothing. */
  readonly quarantined?: true;
  /** The tool that wrote the input when it is not Vitest (a jest-junit file: "jest tests"). */
  readonly foreign?: string;
  /** The check whose run this came from (run records with a CI context or a shard). */
  readonly check?: CaughtBy;
  /** The seed the test's first failed attempt started with (a run record with `seed: true`). */
  readonly failedSeed?: number;
  /** Its record's run seeded node:crypto too (`seed: node-crypto`): the replay says --seed-node-crypto. */
  readonly seedNodeCrypto?: boolean;
}

export interface ObservedFile {
  readonly file: string;
  readonly durationMs: number | null;
  readonly limitMs: number | null;
  readonly origin: string;
}

export interface ObservedUnhandled {
  readonly type: string;
  readonly message: string;
  readonly file: string | null;
  readonly fullName: string | null;
  readonly origin: string;
  /** The error's cause when it says more (Vitest 5: `Worker exited unexpectedly with signal SIGKILL ...`). */
  readonly cause?: string;
  readonly check?: CaughtBy;
}

export interface BudgetExcess {
  readonly kind: 'test' | 'file';
  /** As in ObservedTest: null when the input cannot say. */
  readonly project: string | null;
  readonly file: string;
  readonly fullName: string | null;
  readonly durationMs: number;
  readonly limitMs: number;
  readonly origin: string;
  readonly check?: CaughtBy;
}

/** A report that could not be read whole: salvaged up to `cutAtByte`. */
export interface InputProblem {
  readonly input: string;
  readonly kind: 'truncated' | 'corrupt' | 'empty' | 'missing-report';
  readonly cutAtByte: number | null;
  readonly salvaged: number;
  readonly detail: string;
}

/** A log line that matched a signature or a Vitest marker, with the lines that followed it. */
export interface LogEvent {
  readonly line: number;
  readonly text: string;
  /** Signature id, or a marker: `vitest:fail`, `vitest:unhandled`, `vitest:origin`, `vitest:latest`. */
  readonly id: string;
  readonly after: readonly string[];
}

export interface LogScan {
  readonly input: string;
  readonly lines: number;
  readonly events: readonly LogEvent[];
  /** Hits per id, including the ones not kept as events. */
  readonly counts: Readonly<Record<string, number>>;
  /** The last lines of the log, numbered: the fallback evidence when nothing else explains a red run. */
  readonly tail: readonly { readonly line: number; readonly text: string }[];
}

/** Re-running one failed test (or a whole file when `name` is null) n times in the checkout. */
export interface RerunResult {
  /** The project it was re-run in (`--project`), or null: every project that runs the file. */
  readonly project: string | null;
  readonly file: string;
  readonly fullName: string | null;
  readonly runs: number;
  readonly failed: number;
  /** Runs in which the target did not run at all (filter matched nothing, startup failure). */
  readonly notRun: number;
  readonly firstError: string | null;
}

export interface TriageInputs {
  readonly tests: readonly ObservedTest[];
  readonly files: readonly ObservedFile[];
  readonly unhandled: readonly ObservedUnhandled[];
  /** Budget excesses the reporter recorded (authoritative) or that the edge measured from reports. */
  readonly excesses: readonly BudgetExcess[];
  readonly problems: readonly InputProblem[];
  readonly logs: readonly LogScan[];
  /** Exit code of the run: the flag, else the records, else null. */
  readonly exitCode: number | null;
  /** Where the exit code came from, for evidence. */
  readonly exitCodeOrigin: string | null;
  readonly reruns: readonly RerunResult[] | null;
  /** Re-runs per failed test that were asked for (0 = none). */
  readonly rerunCount: number;
  /** What the history store says about the failed and slow tests; absent or null when history was not used. */
  readonly history?: TriageHistory | null;
  /** Run ids of the run records read: their runs are not their own history. */
  readonly runIds?: readonly string[];
  /**
   * The run records that say Vitest ended their run as interrupted (stopped before its end: --bail,
   * a cancel), as evidence lines; absent or empty when none does.
   */
  readonly interrupted?: readonly string[];
}

export interface Finding {
  readonly class: FindingClass;
  /** The Vitest project the failure is in ('' unnamed), or null when no input said. */
  readonly project: string | null;
  readonly fullName: string | null;
  readonly file: string | null;
  readonly cause: string;
  readonly evidence: readonly string[];
  readonly measured: boolean;
  readonly action: string;
  /** The signature or rule that decided the class. */
  readonly rule: string;
  /** The check that caught it: the first of `seenBy` (set by computeTriage's last step). */
  readonly caughtBy?: CaughtBy;
  /** Every check whose inputs show this failure (several jobs' records), in one order. */
  readonly seenBy?: readonly CaughtBy[];
  /** What `--rerun` would run to measure escape vs flake (not part of the JSON output). */
  readonly rerunTarget?: RerunTarget;
  /** The test file's owners from CODEOWNERS (empty: none, no file, or no CODEOWNERS). */
  readonly owners?: readonly string[];
  /** A flake's likely cause (core/triage/triage-cause.ts); absent on other findings. */
  readonly flakeCause?: CauseFinding | null;
  /** A flake's or escape's replay (core/triage/triage-replay.ts); absent on other findings. */
  readonly replay?: FindingReplay;
}

/** The replay of a flake or escape of a test: its recorded seed's command, or why there is none. */
export interface FindingReplay {
  /** `npx flakeguard replay <file> -t <name> --seed <seed>`, or null when no record kept the seed. */
  readonly command: string | null;
  /** The seed its failed attempt started with in the run, or null. */
  readonly seed: number | null;
  /** Where the seed came from, or "no seed recorded (seed: true records them)". */
  readonly note: string;
}

export interface RerunTarget {
  /** Re-run in this project (`--project`) when known; null: every project that runs the file. */
  readonly project: string | null;
  readonly file: string;
  /** Full test (or suite) name with ' > ', or null for a file-level failure. */
  readonly fullName: string | null;
  readonly line: number | null;
  /** Re-run the whole file (suite, hook, load and unhandled errors) instead of one test. */
  readonly wholeFile: boolean;
  /** What counts as "failed again" in a whole-file run: the suite's FAIL line, an unhandled error, or any failure. */
  readonly check: 'test' | 'suite' | 'file' | 'unhandled';
}

export interface TriageReport {
  readonly version: typeof TRIAGE_VERSION;
  readonly verdict: 'red' | 'green';
  readonly exitCode: number | null;
  readonly findings: readonly Finding[];
  readonly counts: Readonly<Record<FindingClass, number>>;
  /** The history the findings used (branch, runs read per test, tests the store knew), or null. */
  readonly history: { readonly branch: string; readonly window: number; readonly tests: number } | null;
  /** `--owner`: the owner the findings were filtered to, and how many were left out. */
  readonly ownerFilter?: { readonly owner: string; readonly hidden: number };
}
