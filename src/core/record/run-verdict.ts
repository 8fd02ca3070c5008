/**
 * Why a run is red, as a list of causes, so that "exit 1 with no failing test" always comes with
 * its reason: duration budgets, unhandled errors (with their file), files that failed to load,
 * failed suite hooks, a crashed worker. Pure.
 */
import type {
  ExitReason,
  FileState,
  RecordedError,
  RecordedNotice,
  RecordedUnhandledError,
  RedCauseKind,
} from './run-record.js';

interface FileProblem {
  readonly file: string;
  readonly message: string;
}

export type RedCause =
  | { readonly kind: 'failing-tests'; readonly count: number }
  | { readonly kind: 'budget'; readonly tests: number; readonly files: number }
  | { readonly kind: 'unhandled-errors'; readonly errors: readonly RecordedUnhandledError[] }
  | { readonly kind: 'load-errors'; readonly files: readonly FileProblem[] }
  | { readonly kind: 'hook-errors'; readonly files: readonly FileProblem[] }
  | { readonly kind: 'crashed-worker'; readonly files: readonly string[]; readonly message: string | null }
  | { readonly kind: 'allowance-errors'; readonly messages: readonly string[] }
  | { readonly kind: 'interrupted' }
  | { readonly kind: 'no-tests' }
  | { readonly kind: 'unknown'; readonly exitCode: number | null };

export interface RunVerdict {
  readonly red: boolean;
  /** flakeguard asks for exit code 1: budget violations or allowance errors. */
  readonly failedByFlakeguard: boolean;
  /**
   * Vitest's run failed only because of tests under an applying quarantine: flakeguard asks for
   * exit code 0 (the one case where it lowers Vitest's code; docs/quarantine.md).
   */
  readonly excusedByQuarantine?: true;
  readonly causes: readonly RedCause[];
}

export interface VerdictInput {
  readonly failing: number;
  /** Failed tests under an applying quarantine (not in `failing`). */
  readonly quarantinedFailing?: number;
  readonly testViolations: number;
  readonly fileViolations: number;
  readonly files: readonly {
    readonly file: string;
    readonly state: FileState;
    readonly errors: readonly RecordedError[];
    readonly hookErrors: readonly RecordedError[];
  }[];
  readonly unhandledErrors: readonly RecordedUnhandledError[];
  readonly notices: readonly RecordedNotice[];
  readonly reason: ExitReason;
  readonly vitestExitCode: number | null;
}

/** Messages Vitest gives when a test worker died (killed, out of memory, crashed). */
const CRASH_RE =
  /worker (?:\w+ )?(?:emitted error|exited unexpectedly)|worker exited|channel closed|terminated due to|ERR_IPC_CHANNEL_CLOSED/i;

function isWorkerCrash(error: { readonly message: string }): boolean {
  return CRASH_RE.test(error.message);
}

export function computeRunVerdict(input: VerdictInput): RunVerdict {
  const causes: RedCause[] = [];
  if (input.failing > 0) causes.push({ kind: 'failing-tests', count: input.failing });
  if (input.testViolations + input.fileViolations > 0) {
    causes.push({ kind: 'budget', tests: input.testViolations, files: input.fileViolations });
  }
  const crashes = input.unhandledErrors.filter(isWorkerCrash);
  const unhandled = input.unhandledErrors.filter((e) => !isWorkerCrash(e));
  if (unhandled.length > 0) causes.push({ kind: 'unhandled-errors', errors: unhandled });
  const loadErrors = input.files
    .filter((f) => f.errors.length > 0)
    .map((f) => ({ file: f.file, message: f.errors[0]?.message ?? '' }));
  if (loadErrors.length > 0) causes.push({ kind: 'load-errors', files: loadErrors });
  const hookErrors = input.files
    .filter((f) => f.hookErrors.length > 0)
    .map((f) => ({ file: f.file, message: f.hookErrors[0]?.message ?? '' }));
  if (hookErrors.length > 0) causes.push({ kind: 'hook-errors', files: hookErrors });
  // A file still pending or queued when the run ended (and not interrupted) was in a dead worker.
  const stranded =
    input.reason === 'interrupted' ? [] : input.files.filter((f) => f.state === 'pending' || f.state === 'queued');
  if (crashes.length > 0 || (stranded.length > 0 && input.vitestExitCode !== null && input.vitestExitCode !== 0)) {
    causes.push({ kind: 'crashed-worker', files: stranded.map((f) => f.file), message: crashes[0]?.message ?? null });
  }
  const allowanceErrors = input.notices.filter((n) => n.level === 'error').map((n) => n.message);
  if (allowanceErrors.length > 0) causes.push({ kind: 'allowance-errors', messages: allowanceErrors });
  if (input.reason === 'interrupted') causes.push({ kind: 'interrupted' });
  const vitestRed = (input.vitestExitCode !== null && input.vitestExitCode !== 0) || input.reason === 'failed';
  const excusedByQuarantine = vitestRed && causes.length === 0 && (input.quarantinedFailing ?? 0) > 0;
  if (vitestRed && causes.length === 0 && !excusedByQuarantine) {
    causes.push(input.files.length === 0 ? { kind: 'no-tests' } : { kind: 'unknown', exitCode: input.vitestExitCode });
  }
  return {
    red: causes.length > 0,
    ...(excusedByQuarantine ? { excusedByQuarantine: true as const } : {}),
    failedByFlakeguard: input.testViolations + input.fileViolations > 0 || allowanceErrors.length > 0,
    causes,
  };
}

export function causeKinds(verdict: RunVerdict): RedCauseKind[] {
  return verdict.causes.map((c) => c.kind);
}
