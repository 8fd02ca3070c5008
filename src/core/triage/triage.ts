/**
 * Triage of a red run: every failure, unhandled error, budget excess, unreadable input and log
 * signature becomes exactly one finding with one class (infrastructure, escape, flake, budget),
 * its evidence and whether it was measured. A red exit with nothing else to show always gets a
 * finding that says so, with the end of the log. Pure: the edges gather TriageInputs.
 */
import type { FindingClass } from '../config.js';
import { formatDuration } from '../duration.js';
import { judgeAttempts } from './log-attempts.js';
import { attemptFlake, attemptsLine, classifyFailure, matchSignature, rerunKey, retryFlake } from './triage-failure.js';
import { applyExitCode, applyRunLevelSignatures, applyUnfinishedFiles, silenceFinding } from './triage-run-level.js';
import { foldSuiteShadows, mergeObservations, type MergedTest } from './triage-merge.js';
import type { LogSignature } from './triage-signatures.js';
import { TRIAGE_VERSION, type Finding, type ObservedUnhandled, type TriageInputs, type TriageReport } from './triage-types.js';
import { testKey } from '../test-id.js';

const CLASS_ORDER: readonly FindingClass[] = ['infrastructure', 'escape', 'flake', 'budget'];

function failureWhat(t: MergedTest, suite: boolean): string {
  if (t.kind === 'file') return 'the test file';
  if (t.kind === 'suite' || suite) return 'a hook or suite';
  return 'the test';
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
    else for (const [i, file] of files.entries()) groups.push(same.filter((u) => u.file === file || (i === 0 && u.file === null)));
  }
  return groups;
}

function unhandledFindings(inputs: TriageInputs, signatures: readonly LogSignature[], pendingFiles: readonly string[]): Finding[] {
  const findings: Finding[] = [];
  for (const group of groupUnhandled(inputs.unhandled)) {
    const u = group.find((g) => g.file !== null) ?? group[0];
    if (!u) continue;
    const test = group.find((g) => g.test !== null)?.test ?? null;
    const cause = group.find((g) => g.cause !== undefined)?.cause;
    const crash = matchSignature([u.message, cause ?? ''].join('\n'), signatures);
    const file = u.file ?? (crash?.class === 'infrastructure' && pendingFiles.length === 1 ? pendingFiles[0] ?? null : null);
    const evidence = group.map((g) => g.origin);
    if (cause !== undefined) evidence.push(`caused by: ${cause}`);
    if (u.file === null && file !== null) evidence.push(`tests left pending (the worker never reported them) in ${file}`);
    const where = u.file === null ? '' : ` from ${u.file}${test ? ` (latest test "${test}")` : ''}`;
    findings.push(
      classifyFailure(
        {
          test: null,
          file,
          what: `${u.type.toLowerCase()}${where}`,
          // The cause says how the worker died (`with signal SIGKILL during started state`); the file is the finding's own.
          errors: cause === undefined ? [u.message] : [cause.replace(/ while running test files? .*$/, ''), u.message],
          evidence,
          rerun: file === null ? undefined : inputs.reruns?.find((r) => rerunKey(r.file, r.name) === rerunKey(file, null)),
          rerunAsked: inputs.rerunCount,
          wholeFile: true,
          check: 'unhandled',
          line: null,
        },
        signatures,
      ),
    );
  }
  return findings;
}

function budgetFindings(inputs: TriageInputs, merged: readonly MergedTest[]): Finding[] {
  const failedFiles = new Set(merged.filter((t) => t.state === 'failed' && t.file !== null).map((t) => t.file));
  const failedTests = new Set(merged.filter((t) => t.state === 'failed').map((t) => testKey(t.file, t.name)));
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const x of inputs.excesses) {
    const key = `${x.kind}:${testKey(x.file, x.name)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (x.kind === 'test' && failedTests.has(testKey(x.file, x.name))) continue;
    if (x.kind === 'file' && failedFiles.has(x.file)) continue;
    const over = x.durationMs - x.limitMs;
    findings.push({
      class: 'budget',
      test: x.kind === 'test' ? x.name : null,
      file: x.file,
      cause: `${x.kind === 'test' ? 'test' : 'file'} took ${formatDuration(x.durationMs)}, over its ${formatDuration(x.limitMs)} limit by ${formatDuration(over)}; its assertions passed`,
      evidence: [x.origin],
      measured: true,
      action:
        x.kind === 'test'
          ? 'make the test faster, or add an allowance next to it: flakeguard allowances add (reviewed with the change)'
          : 'split the file or make its slowest tests faster; the file budget is budget.file in flakeguard.yaml',
      rule: `budget-${x.kind}`,
    });
  }
  return findings;
}

export function computeTriage(inputs: TriageInputs, signatures: readonly LogSignature[]): TriageReport {
  const merged = foldSuiteShadows(mergeObservations(inputs.tests));
  const failed = merged.filter((t) => t.state === 'failed');
  const filesWithNamedFailure = new Set(failed.filter((t) => t.kind !== 'file' || t.errors.length > 0).map((t) => t.file));
  const findings: Finding[] = [];
  const isSuite = (t: MergedTest): boolean => inputs.tests.some((o) => o.file === t.file && o.name.startsWith(`${t.name} > `));
  for (const t of failed) {
    // A report's "file failed, empty message" is the shadow of a suite failure another input names.
    if (t.kind === 'file' && t.errors.length === 0 && filesWithNamedFailure.has(t.file)) continue;
    const test = t.kind === 'file' ? null : t.name;
    const attempts = judgeAttempts(t.failedAttempts);
    if (test !== null && attempts.passed.length > 0) {
      findings.push(attemptFlake(test, t.file, t.errors, t.origins, attempts));
      continue;
    }
    findings.push(
      classifyFailure(
        {
          test,
          file: t.file,
          what: failureWhat(t, isSuite(t)),
          errors: t.errors,
          evidence: attempts.failed.length > 1 ? [...t.origins, attemptsLine(attempts)] : t.origins,
          rerun: t.file === null ? undefined : inputs.reruns?.find((r) => rerunKey(r.file, r.name) === rerunKey(t.file ?? '', test)),
          rerunAsked: inputs.rerunCount,
          // A name that other entries of the file sit under is a suite (a hook or suite error).
          wholeFile: t.kind !== 'test' || isSuite(t),
          check: t.kind === 'file' ? 'file' : t.kind === 'suite' || isSuite(t) ? 'suite' : 'test',
          line: t.line,
        },
        signatures,
      ),
    );
  }
  for (const t of merged) {
    if (t.state === 'passed' && t.errors.length > 0 && t.kind === 'test') findings.push(retryFlake(t.name, t.file, t.errors, t.origins));
  }
  const pending = merged.filter((t) => t.state === 'pending' && t.file !== null);
  const pendingFiles = [...new Set(pending.map((t) => t.file as string))];
  findings.push(...unhandledFindings(inputs, signatures, pendingFiles));
  findings.push(...budgetFindings(inputs, merged));
  const deferred: Finding[] = [];
  for (const p of inputs.problems) {
    (p.kind === 'missing-report' ? deferred : findings).push({
      class: 'infrastructure',
      test: null,
      file: null,
      cause:
        p.kind === 'truncated'
          ? `the report ${p.input} was cut off at byte ${p.cutAtByte ?? '?'}; salvaged ${p.salvaged} complete test entries`
          : p.kind === 'corrupt'
            ? `the report ${p.input} is corrupt at byte ${p.cutAtByte ?? '?'}; salvaged ${p.salvaged} complete test entries`
            : p.kind === 'empty'
              ? `the report ${p.input} is empty`
              : `no report was written at ${p.input} (Vitest did not start, or stopped before its reporters ran)`,
      evidence: [p.detail],
      measured: true,
      action: 'find out why the writer stopped (disk full, killed job, artifact size limit) and keep the log; triage used what could be read',
      rule: `report-${p.kind}`,
    });
  }
  applyRunLevelSignatures(findings, inputs, signatures, pendingFiles);
  // A report that was never written is part of the startup failure the log names, when it names one.
  for (const missing of deferred) {
    const i = findings.findIndex((f) => f.class === 'infrastructure' && f.test === null && f.file === null && !f.rule.startsWith('report-'));
    const f = findings[i];
    if (f) findings[i] = { ...f, evidence: [...f.evidence, `${missing.cause}`] };
    else findings.push(missing);
  }
  applyExitCode(findings, inputs, signatures);
  applyUnfinishedFiles(findings, pendingFiles, (file) => pending.filter((t) => t.file === file).flatMap((t) => t.origins));
  const red = (inputs.exitCode !== null && inputs.exitCode !== 0) || findings.some((f) => f.rule !== 'retry-pass');
  if (red && !findings.some((f) => f.rule !== 'retry-pass')) findings.push(silenceFinding(inputs, signatures, failed.length));
  const sorted = [...findings].sort((a, b) => CLASS_ORDER.indexOf(a.class) - CLASS_ORDER.indexOf(b.class) || (a.file ?? '').localeCompare(b.file ?? '') || (a.test ?? '').localeCompare(b.test ?? ''));
  const counts = { infrastructure: 0, escape: 0, flake: 0, budget: 0 } as Record<FindingClass, number>;
  for (const f of sorted) counts[f.class] += 1;
  return { version: TRIAGE_VERSION, verdict: red ? 'red' : 'green', exitCode: inputs.exitCode, findings: sorted, counts };
}

