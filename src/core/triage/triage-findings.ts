/**
 * The first passes of computeTriage: one draft per failure (test, suite, file), per retry flake,
 * per unhandled error (the inputs' copies of one error grouped), per budget excess and per
 * unreadable input. Pure.
 */
import { formatDuration } from '../duration.js';
import { testKey } from '../test-id.js';
import { type AttemptVerdict, judgeAttempts } from './log-attempts.js';
import {
  attemptFlake,
  attemptsLine,
  classifyFailure,
  type FailureInput,
  matchSignature,
  rerunKey,
  retryFlake,
} from './triage-failure.js';
import type { MergedTest } from './triage-merge.js';
import { addEvidence, type Draft, makeDraft } from './triage-rule.js';
import type { LogSignature } from './triage-signatures.js';
import type { InputProblem, ObservedUnhandled, TriageInputs } from './triage-types.js';

function failureWhat(t: MergedTest, suite: boolean): string {
  if (t.kind === 'file') return 'the test file';
  if (t.kind === 'suite' || suite) return 'a hook or suite';
  return 'the test';
}

export function failureDrafts(
  inputs: TriageInputs,
  merged: readonly MergedTest[],
  signatures: readonly LogSignature[],
): Draft[] {
  const failed = merged.filter((t) => t.state === 'failed');
  const filesWithNamedFailure = new Set(
    failed.filter((t) => t.kind !== 'file' || t.errors.length > 0).map((t) => t.file),
  );
  const isSuite = (t: MergedTest): boolean =>
    inputs.tests.some((o) => o.file === t.file && o.fullName.startsWith(`${t.fullName} > `));
  const drafts: Draft[] = [];
  for (const t of failed) {
    // A report's "file failed, empty message" is the shadow of a suite failure another input names.
    if (t.kind === 'file' && t.errors.length === 0 && filesWithNamedFailure.has(t.file)) continue;
    const test = t.kind === 'file' ? null : t.fullName;
    const attempts = judgeAttempts(t.failedAttempts);
    if (test !== null && attempts.passed.length > 0) {
      drafts.push(attemptFlake(t.project, test, t.file, t.errors, t.origins, attempts));
      continue;
    }
    drafts.push(classifyFailure(failureInputOf(t, test, attempts, isSuite(t), inputs), signatures));
  }
  for (const t of merged) {
    if (t.state === 'passed' && t.errors.length > 0 && t.kind === 'test')
      drafts.push(retryFlake(t.project, t.fullName, t.file, t.errors, t.origins));
  }
  return drafts;
}

/** What classifyFailure needs to know of one failed test (or file, or suite). */
function failureInputOf(
  t: MergedTest,
  fullName: string | null,
  attempts: AttemptVerdict,
  suite: boolean,
  inputs: TriageInputs,
): FailureInput {
  return {
    project: t.project,
    fullName,
    file: t.file,
    what: failureWhat(t, suite),
    errors: t.errors,
    evidence: attempts.failed.length > 1 ? [...t.origins, attemptsLine(attempts)] : t.origins,
    rerun:
      t.file === null
        ? undefined
        : inputs.reruns?.find(
            (r) => rerunKey(r.project, r.file, r.fullName) === rerunKey(t.project, t.file ?? '', fullName),
          ),
    rerunAsked: inputs.rerunCount,
    // A name that other entries of the file sit under is a suite (a hook or suite error).
    wholeFile: t.kind !== 'test' || suite,
    check: t.kind === 'file' ? 'file' : t.kind === 'suite' || suite ? 'suite' : 'test',
    line: t.line,
    source: 'failure',
    foreign: t.foreign,
  };
}

/** The record says "boom", the log "Error: boom", JUnit `message="boom"`: one error. */
function unhandledKey(u: ObservedUnhandled): string {
  return u.message.replace(/^[\w.]*(?:Error|Rejection|Exception): /, '').slice(0, 120);
}

/** Groups the inputs' unhandled errors: one per message and file (an input that did not name the file joins the one that did). */
function groupUnhandled(all: readonly ObservedUnhandled[]): ObservedUnhandled[][] {
  const byMessage = new Map<string, ObservedUnhandled[]>();
  for (const u of all) byMessage.set(unhandledKey(u), [...(byMessage.get(unhandledKey(u)) ?? []), u]);
  const groups: ObservedUnhandled[][] = [];
  for (const same of byMessage.values()) {
    const files = [...new Set(same.map((u) => u.file).filter((f): f is string => f !== null))];
    if (files.length <= 1) groups.push(same);
    else
      for (const [i, file] of files.entries())
        groups.push(same.filter((u) => u.file === file || (i === 0 && u.file === null)));
  }
  return groups;
}

/**
 * Unhandled errors from one file that one infrastructure signature explains are one event seen
 * several times (a coverage collector that lost its folder fails every flush): one finding.
 */
function mergeSameCause(drafts: readonly Draft[]): Draft[] {
  const out: Draft[] = [];
  for (const d of drafts) {
    const same =
      d.kind === 'signature' && d.finding.class === 'infrastructure'
        ? out.findIndex(
            (o) =>
              o.kind === 'signature' &&
              o.signature === d.signature &&
              o.finding.file === d.finding.file &&
              o.finding.class === 'infrastructure',
          )
        : -1;
    const into = out[same];
    if (into === undefined) {
      out.push(d);
      continue;
    }
    out[same] = addEvidence(into, d.finding.evidence);
  }
  return out;
}

export function unhandledDrafts(
  inputs: TriageInputs,
  signatures: readonly LogSignature[],
  pendingFiles: readonly string[],
): Draft[] {
  const drafts: Draft[] = [];
  for (const group of groupUnhandled(inputs.unhandled)) {
    const u = group.find((g) => g.file !== null) ?? group[0];
    if (!u) continue;
    const test = group.find((g) => g.fullName !== null)?.fullName ?? null;
    const cause = group.find((g) => g.cause !== undefined)?.cause;
    const crash = matchSignature([u.message, cause ?? ''].join('\n'), signatures);
    const file =
      u.file ?? (crash?.class === 'infrastructure' && pendingFiles.length === 1 ? (pendingFiles[0] ?? null) : null);
    const evidence = group.map((g) => g.origin);
    if (cause !== undefined) evidence.push(`caused by: ${cause}`);
    if (u.file === null && file !== null)
      evidence.push(`tests left pending (the worker never reported them) in ${file}`);
    const where = u.file === null ? '' : ` from ${u.file}${test ? ` (latest test "${test}")` : ''}`;
    drafts.push(
      classifyFailure(
        {
          project: null,
          fullName: null,
          file,
          what: `${u.type.toLowerCase()}${where}`,
          // The cause says how the worker died (`with signal SIGKILL during started state`); the file is the finding's own.
          errors: cause === undefined ? [u.message] : [cause.replace(/ while running test files? .*$/, ''), u.message],
          evidence,
          rerun:
            file === null
              ? undefined
              : inputs.reruns?.find((r) => rerunKey(r.project, r.file, r.fullName) === rerunKey(null, file, null)),
          rerunAsked: inputs.rerunCount,
          wholeFile: true,
          check: 'unhandled',
          line: null,
          source: 'unhandled',
          foreign: null,
        },
        signatures,
      ),
    );
  }
  return mergeSameCause(drafts);
}

export function budgetDrafts(inputs: TriageInputs, merged: readonly MergedTest[]): Draft[] {
  const failedFiles = new Set(merged.filter((t) => t.state === 'failed' && t.file !== null).map((t) => t.file));
  const failedTests = new Set(merged.filter((t) => t.state === 'failed').map(testKey));
  const drafts: Draft[] = [];
  const seen = new Set<string>();
  for (const x of inputs.excesses) {
    const key = `${x.kind}:${testKey(x)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (x.kind === 'test' && failedTests.has(testKey(x))) continue;
    if (x.kind === 'file' && failedFiles.has(x.file)) continue;
    const over = x.durationMs - x.limitMs;
    const kind = x.kind === 'test' ? 'budget-test' : 'budget-file';
    const finding = {
      class: 'budget' as const,
      project: x.project,
      fullName: x.kind === 'test' ? x.fullName : null,
      file: x.file,
      cause: `${x.kind === 'test' ? 'test' : 'file'} took ${formatDuration(x.durationMs)}, over its ${formatDuration(x.limitMs)} limit by ${formatDuration(over)}; its assertions passed`,
      evidence: [x.origin],
      measured: true,
      action:
        x.kind === 'test'
          ? 'make the test faster, or add an allowance next to it: flakeguard allowances add (reviewed with the change)'
          : 'split the file or make its slowest tests faster; the file budget is budget.file in flakeguard.yaml',
      rule: kind,
    };
    drafts.push(makeDraft(finding, kind, 'budget'));
  }
  return drafts;
}

/** A cut, corrupt or empty report (a report never written is joined later: missingReportDraft). */
export function problemDraft(p: InputProblem): Draft {
  const kind =
    p.kind === 'truncated'
      ? 'report-truncated'
      : p.kind === 'corrupt'
        ? 'report-corrupt'
        : p.kind === 'empty'
          ? 'report-empty'
          : 'report-missing-report';
  const cause =
    p.kind === 'truncated'
      ? `the report ${p.input} was cut off at byte ${p.cutAtByte ?? '?'}; salvaged ${p.salvaged} complete test entries`
      : p.kind === 'corrupt'
        ? `the report ${p.input} is corrupt at byte ${p.cutAtByte ?? '?'}; salvaged ${p.salvaged} complete test entries`
        : p.kind === 'empty'
          ? `the report ${p.input} is empty`
          : `no report was written at ${p.input} (Vitest did not start, or stopped before its reporters ran)`;
  const finding = {
    class: 'infrastructure' as const,
    project: null,
    fullName: null,
    file: null,
    cause,
    evidence: [p.detail],
    measured: true,
    action:
      'find out why the writer stopped (disk full, killed job, artifact size limit) and keep the log; triage used what could be read',
    rule: kind,
  };
  return makeDraft(finding, kind, 'input');
}
