/**
 * One failure (a test, a suite, a file that did not load, an unhandled error) to one finding:
 * an infrastructure signature in its errors decides infrastructure; otherwise re-runs decide escape
 * (every re-run failed) or flake (some passed); without re-runs it is an escape, inferred, and the
 * finding says so. A pass after a retry in the run itself is a measured flake.
 */

import { projectTag, testKey } from '../test-id.js';
import { type AttemptVerdict, formatAttempt } from './log-attempts.js';
import { reproduceCommand } from './reproduce-command.js';
import { type Draft, type FindingSource, makeDraft } from './triage-rule.js';
import type { LogSignature } from './triage-signatures.js';
import type { RerunResult, RerunTarget } from './triage-types.js';

export function matchSignature(text: string, signatures: readonly LogSignature[]): LogSignature | undefined {
  if (text === '') return undefined;
  return signatures.find((s) => (s.regex === true ? new RegExp(s.match, 'm').test(text) : text.includes(s.match)));
}

function firstLine(errors: readonly string[]): string {
  // Vitest's JSON report writes a timeout as "Error: STACK_TRACE_ERROR": prefer any other message.
  const ordered = [
    ...errors.filter((e) => !e.startsWith('Error: STACK_TRACE_ERROR')),
    ...errors.filter((e) => e.startsWith('Error: STACK_TRACE_ERROR')),
  ];
  for (const e of ordered) {
    const line = e.split('\n').find((l) => l.trim() !== '');
    if (line !== undefined) return line.trim().slice(0, 300);
  }
  return '';
}

export function rerunKey(project: string | null, file: string, name: string | null): string {
  return testKey({ project, file, fullName: name });
}

export interface FailureInput {
  /** As in ObservedTest: null when no input said. */
  readonly project: string | null;
  readonly fullName: string | null;
  readonly file: string | null;
  /** What failed, for the cause: "the test", "suite or hook", "the file did not load", "unhandled rejection". */
  readonly what: string;
  readonly errors: readonly string[];
  readonly evidence: readonly string[];
  readonly rerun: RerunResult | undefined;
  readonly rerunAsked: number;
  /** How to re-run it: one test, or the whole file. */
  readonly wholeFile: boolean;
  readonly check: RerunTarget['check'];
  readonly line: number | null;
  /** A failure of a test, suite or file, or an unhandled error. */
  readonly source: Extract<FindingSource, 'failure' | 'unhandled'>;
  /** The tool that wrote the input when it is not Vitest: no Vitest command reproduces it. */
  readonly foreign: string | null;
}

function reproduceWith(input: FailureInput): string {
  if (input.foreign !== null)
    return `the tool that wrote it (the file is from ${JSON.stringify(input.foreign)}, not Vitest: no Vitest re-run command can be given)`;
  // A test without a known line is reproduced with its whole file (a name pattern would need escaping and can match others).
  const line = input.fullName === null || input.fullName === '' ? null : input.line;
  return `${reproduceCommand(input.file, line)}${input.fullName !== null && input.fullName !== '' && line === null && input.file !== null ? ` (its whole file: no line is known for the test)` : ''}`;
}

function targetOf(input: FailureInput): { rerunTarget?: RerunTarget } {
  if (input.file === null || input.foreign !== null) return {};
  return {
    rerunTarget: {
      project: input.project,
      file: input.file,
      fullName: input.fullName,
      line: input.line,
      wholeFile: input.wholeFile || input.fullName === null,
      check: input.check,
    },
  };
}

export function classifyFailure(input: FailureInput, signatures: readonly LogSignature[]): Draft {
  const text = input.errors.join('\n');
  const sig = matchSignature(text, signatures);
  const line = firstLine(input.errors);
  const detail = line === '' ? `${input.what} failed; no error message in the inputs` : line;
  const evidence = [...input.evidence];
  if (line !== '' && !evidence.some((e) => e.includes(line))) evidence.push(`error: ${line}`);
  if (sig && sig.class === 'infrastructure') {
    const finding = {
      class: 'infrastructure',
      project: input.project,
      fullName: input.fullName,
      file: input.file,
      cause: `${sig.cause}: ${detail}`,
      evidence: input.rerun ? [...evidence, rerunLine(input.rerun)] : evidence,
      measured: false,
      action: sig.action,
      rule: sig.id,
    } as const;
    return makeDraft(finding, 'signature', input.source, sig.id);
  }
  const why = sig ? `${sig.cause}: ${detail}` : detail;
  const rerun = input.rerun;
  const effective = rerun ? rerun.runs - rerun.notRun : 0;
  if (rerun && effective > 0) return rerunDraft(input, rerun, effective, sig, why, evidence);
  const why2 = rerun
    ? `${why} (re-run not possible: ${rerun.notRun}/${rerun.runs} runs did not run it${rerun.firstError ? `: ${rerun.firstError}` : ''})`
    : why;
  const finding = {
    class: 'escape',
    project: input.project,
    fullName: input.fullName,
    file: input.file,
    cause: `escape (inferred: not re-run): ${input.what === 'the test' ? '' : `${input.what}: `}${why2}`,
    evidence: rerun ? [...evidence, rerunLine(rerun)] : evidence,
    measured: false,
    action: `${input.foreign === null ? 'confirm with flakeguard triage --rerun 5 (escape if every re-run fails, flake otherwise); reproduce' : 're-run it'} with ${reproduceWith(input)}${sig ? `; ${sig.action}` : ''}`,
    rule: sig?.id ?? 'failed-not-rerun',
    ...targetOf(input),
  } as const;
  return sig
    ? makeDraft(finding, 'signature', input.source, sig.id)
    : makeDraft(finding, 'failed-not-rerun', input.source);
}

/** A failure the re-runs decided: an escape when every effective re-run failed, else a flake. */
function rerunDraft(
  input: FailureInput,
  rerun: RerunResult,
  effective: number,
  sig: LogSignature | undefined,
  why: string,
  evidence: readonly string[],
): Draft {
  const reproduced = rerun.failed === effective;
  const kind = reproduced ? 'rerun-failed' : 'rerun-passed';
  const finding = {
    class: reproduced ? 'escape' : 'flake',
    project: input.project,
    fullName: input.fullName,
    file: input.file,
    cause: reproduced
      ? `${input.what} fails on every re-run (${rerun.failed}/${effective}): ${why}`
      : `${input.what} failed in the run but passed ${effective - rerun.failed} of ${effective} re-runs: ${why}`,
    evidence: [...evidence, rerunLine(rerun)],
    measured: true,
    action: reproduced
      ? `fix the defect; reproduce with ${reproduceWith(input)}`
      : `stabilise it: wait for exactly what the assertion checks; measure with flakeguard gate (${sig?.action ?? 'runs it 5 times under load'})`,
    rule: sig?.id ?? kind,
    ...targetOf(input),
  } as const;
  return sig ? makeDraft(finding, 'signature', input.source, sig.id) : makeDraft(finding, kind, input.source);
}

function rerunLine(r: RerunResult): string {
  const ran = r.runs - r.notRun;
  const target = `${r.file}${projectTag(r.project)}${r.fullName === null ? '' : ` > ${r.fullName}`}`;
  return `re-ran ${target} ${r.runs} time${r.runs === 1 ? '' : 's'}: ${r.failed}/${ran} failed${r.notRun > 0 ? `, ${r.notRun} did not run it` : ''}${r.firstError ? ` (first error: ${r.firstError})` : ''}`;
}

export function retryFlake(
  project: string | null,
  test: string,
  file: string | null,
  errors: readonly string[],
  evidence: readonly string[],
): Draft {
  const line = firstLine(errors);
  return makeDraft(
    {
      class: 'flake',
      project,
      fullName: test,
      file,
      cause: `failed ${errors.length} time${errors.length === 1 ? '' : 's'}, then passed on a retry in the same run${line ? `: ${line}` : ''}`,
      evidence: [...evidence, ...errors.slice(0, 3).map((e, i) => `attempt ${i + 1} failed: ${firstLine([e])}`)],
      measured: true,
      action:
        'stabilise it: wait for exactly what the assertion checks; observe completion before measuring; measure with flakeguard gate',
      rule: 'retry-pass',
    },
    'retry-pass',
    'failure',
  );
}

/** `failed on every attempt the run made (initial run, 1st retry)`: retries in one worker are not independent re-runs. */
export function attemptsLine(v: AttemptVerdict): string {
  return `failed on all ${v.failed.length} attempts the run made (${v.failed.map(formatAttempt).join(', ')}); retries in the same worker are not independent re-runs`;
}

/** Vitest 5 names the attempts that failed: an attempt that ran and is not among them passed. */
export function attemptFlake(
  project: string | null,
  test: string,
  file: string | null,
  errors: readonly string[],
  evidence: readonly string[],
  v: AttemptVerdict,
): Draft {
  const line = firstLine(errors);
  return makeDraft(
    {
      class: 'flake',
      project,
      fullName: test,
      file,
      cause: `failed on ${v.failed.map(formatAttempt).join(', ')} but passed on ${v.passed.map(formatAttempt).join(', ')} in the same run${line ? `: ${line}` : ''}`,
      evidence: [
        ...evidence,
        `failed attempts (Vitest's FAIL line): ${v.failed.map(formatAttempt).join(', ')}; passed: ${v.passed.map(formatAttempt).join(', ')}`,
      ],
      measured: true,
      action:
        'stabilise it: wait for exactly what the assertion checks; observe completion before measuring; measure with flakeguard gate',
      rule: 'attempt-pass',
    },
    'attempt-pass',
    'failure',
  );
}
