/**
 * The run record: one JSON file per Vitest run (per shard when sharded) that the reporter writes
 * under `.flakeguard/runs/` and that `gate`, `triage`, `allowances list` and `init` read back.
 * Schema documented field by field in docs/run-record.md. Bump `version` on any incompatible
 * change; fields added later are optional so that records written before them still read.
 */

import type { TestRef } from '../test-id.js';
import type { CiContext } from './ci-context.js';
import type { MachineIdentity } from './machine.js';

/**
 * 2: a test's full name is `fullName` everywhere (version 1, 0.1.0's, wrote `name` in `tests[]` and
 * `violations[]` and `test` in `unhandledErrors[]`); `violations[]` carry `project`. Version 1
 * records are read (run-record-parse.ts upgrades them in memory).
 */
export const RUN_RECORD_VERSION = 2 as const;
/** What a record's `format` says (schemas/run-record.schema.json). */
export const RUN_RECORD_FORMAT = 'flakeguard-run-record' as const;

export type TestState = 'passed' | 'failed' | 'skipped' | 'pending';
export type FileState = 'passed' | 'failed' | 'skipped' | 'pending' | 'queued';
export type LimitSource = 'budget' | 'allowance';
export type ExitReason = 'passed' | 'failed' | 'interrupted';
export type BudgetStatus = 'over' | 'near' | 'within' | 'unchecked';

export interface RecordedError {
  readonly message: string;
  /** First stack frame that points into the user's code, `file:line:column`, or null. */
  readonly frame: string | null;
  readonly type?: string;
}

/** A test as the record writes it: its file and full name, and its Vitest project (docs/run-record.md "Field names"). */
export interface RecordedTest extends TestRef {
  /** The Vitest project ('' when unnamed); absent in records written before it was recorded. */
  readonly project?: string;
  /** `<file relative to root>::<full name with ' > '>`: stable across runs, unlike Vitest's id. */
  readonly key: string;
  readonly line: number | null;
  readonly state: TestState;
  readonly durationMs: number | null;
  readonly retries: number;
  readonly flaky: boolean;
  readonly errors: readonly RecordedError[];
  readonly limitMs: number;
  readonly limitSource: LimitSource;
  /** Allowance id when limitSource is 'allowance'. */
  readonly allowanceId?: string;
  /** Per-try durations when a repeat/retry runner recorded them (gate runs). */
  readonly triesMs?: readonly number[];
  readonly tryStates?: readonly ('passed' | 'failed')[];
  readonly column?: number | null;
  /** Key of the budget or allowance value that gave the limit: a platform, default, all, built-in. */
  readonly limitKey?: string;
  readonly budgetStatus?: BudgetStatus;
  /** The quarantine entry over this test, applying or expired (docs/quarantine.md). */
  readonly quarantine?: RecordedQuarantine;
  /**
   * The seed each attempt started its random source with, in order (the first run, then each retry
   * or repeat): `seed: true` with the flakeguard/seed setup file (docs/replay.md "Replays from CI").
   * Absent: the test was not seeded.
   */
  readonly seeds?: readonly number[];
  /** The seed of the first attempt that failed (`flakeguard replay --seed` with it); absent when none failed or not seeded. */
  readonly failedSeed?: number;
}

export interface RecordedQuarantine {
  readonly id: string;
  readonly reason: string;
  readonly link: string | null;
  readonly expires: string | null;
  readonly expired: boolean;
}

export interface RecordedFile {
  readonly file: string;
  readonly state: FileState;
  readonly durationMs: number | null;
  readonly limitMs: number | null;
  readonly errors: readonly RecordedError[];
  readonly project?: string;
  readonly limitKey?: string | null;
  readonly budgetStatus?: BudgetStatus;
  /** Errors of beforeAll/afterAll hooks in the file (its tests then show as skipped). */
  readonly hookErrors?: readonly RecordedError[];
}

/** Why a run was red, one entry per cause; see docs/run-record.md for each kind. */
export type RedCauseKind =
  | 'failing-tests'
  | 'budget'
  | 'unhandled-errors'
  | 'load-errors'
  | 'hook-errors'
  | 'crashed-worker'
  | 'allowance-errors'
  | 'interrupted'
  | 'no-tests'
  | 'unknown';

export interface RecordedVerdict {
  readonly red: boolean;
  /** True when flakeguard itself asked for exit code 1 (budget violations, allowance errors). */
  readonly failedByFlakeguard: boolean;
  /** True when the only failures were quarantined tests and flakeguard asked for exit code 0. */
  readonly excusedByQuarantine?: boolean;
  readonly causes: readonly RedCauseKind[];
  /** The last line flakeguard printed. */
  readonly summary: string;
}

export interface RecordedNotice {
  readonly level: 'error' | 'warning';
  readonly message: string;
}

export interface RecordedUnhandledError {
  readonly message: string;
  readonly type: string;
  /** Test file the error came from, relative to root, when Vitest said so. */
  readonly file: string | null;
  /** The full name of the test running at the time, or null. */
  readonly fullName: string | null;
}

export interface BudgetViolation {
  readonly kind: 'test' | 'file';
  /** The Vitest project of the test or file ('' unnamed); absent in records written before 0.2. */
  readonly project?: string;
  readonly file: string;
  /** The test's full name; null for a file. */
  readonly fullName: string | null;
  readonly line: number | null;
  readonly durationMs: number;
  readonly limitMs: number;
  readonly limitSource: LimitSource;
  readonly platformKey: string;
  readonly allowanceId?: string;
}

export interface RunRecord {
  /** Which of flakeguard's formats this is; written since 0.2.0 (absent in older records, which still read). */
  readonly format?: typeof RUN_RECORD_FORMAT;
  readonly version: typeof RUN_RECORD_VERSION;
  readonly runId: string;
  readonly startedAt: string;
  readonly endedAt: string;
  readonly root: string;
  readonly platform: string;
  readonly arch: string;
  readonly cpus: number;
  readonly loadavgStart: readonly number[];
  readonly loadavgEnd: readonly number[];
  readonly nodeVersion: string;
  readonly vitestVersion: string;
  readonly git: { readonly commit: string | null; readonly dirty: boolean | null };
  readonly shard: { readonly index: number; readonly count: number } | null;
  readonly merged: boolean;
  readonly exitReason: ExitReason;
  /** process.exitCode as flakeguard left it (null when it left it unset). */
  readonly exitCode: number | null;
  readonly unhandledErrors: readonly RecordedUnhandledError[];
  readonly budget: { readonly testMs: number; readonly fileMs: number | null; readonly warnAt: number };
  readonly violations: readonly BudgetViolation[];
  readonly tests: readonly RecordedTest[];
  readonly files: readonly RecordedFile[];
  /** Watch-mode run (reported, never sets the exit code). */
  readonly watch?: boolean;
  /** process.exitCode as Vitest had set it when the run ended, before flakeguard (null: unset). */
  readonly vitestExitCode?: number | null;
  readonly verdict?: RecordedVerdict;
  /** Notices from the allowance engine (unknown allowances, invalid files). */
  readonly notices?: readonly RecordedNotice[];
  /** Where the run ran, from the CI provider's variables; null outside a known CI (docs/run-record.md). */
  readonly ci?: CiContext | null;
  /** The machine it ran on: a hash of host name, CPU model and core count, and its class (core/record/machine.ts); absent before issue 37. */
  readonly machine?: MachineIdentity | null;
  /**
   * The run seed its tests' seeds were derived from (`seed: true`: FLAKEGUARD_SEED, else a fresh
   * one); null when the record merges shards seeded from different ones; absent when `seed` is off.
   */
  readonly runSeed?: number | null;
  /** `seed: node-crypto`: node:crypto's randomBytes, randomInt and randomUUID were seeded too; absent: not. */
  readonly seedNodeCrypto?: boolean;
}
