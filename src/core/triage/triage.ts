/**
 * Triage of a red run: every failure, unhandled error, budget excess, unreadable input and log
 * signature becomes exactly one finding with one class (infrastructure, escape, flake, budget),
 * its evidence and whether it was measured. A red exit with nothing else to show always gets a
 * finding that says so, with the end of the log. Pure: the edges gather TriageInputs.
 *
 * A pipeline of pure passes over immutable drafts (a finding with the RuleKind that decided it):
 * the inputs are put in one canonical order first, so the order the inputs came in changes nothing.
 * `planTriage` runs only the first passes, to say what the edge should gather before the one
 * computeTriage: which tests to ask the history store about and which failures to re-run.
 */

import { refKey, type TestId, testKey } from '../test-id.js';
import { canonicalInputs } from './triage-canonical.js';
import { attachChecks } from './triage-caught-by.js';
import { attachFlakeCauses } from './triage-cause.js';
import type { FindingClass } from './triage-config.js';
import { applyExitCode, applyUnfinishedFiles, silenceDraft } from './triage-exit.js';
import { budgetDrafts, failureDrafts, problemDraft, unhandledDrafts } from './triage-findings.js';
import { applyHistory, historyQuestions } from './triage-history.js';
import { foldSuiteShadows, type MergedTest, mergeObservations } from './triage-merge.js';
import { attachReplays } from './triage-replay.js';
import type { Draft } from './triage-rule.js';
import {
  addLogSignatures,
  hitsBySignature,
  joinMissingReports,
  type SignatureHits,
  supersedeDecided,
} from './triage-run-level.js';
import type { LogSignature } from './triage-signatures.js';
import {
  type Finding,
  type RerunTarget,
  TRIAGE_VERSION,
  type TriageInputs,
  type TriageReport,
} from './triage-types.js';

const CLASS_ORDER: readonly FindingClass[] = ['infrastructure', 'escape', 'flake', 'budget'];

/** What every pass may read: the inputs and what was derived from them once. */
interface TriageContext {
  readonly inputs: TriageInputs;
  readonly signatures: readonly LogSignature[];
  readonly merged: readonly MergedTest[];
  readonly pendingFiles: readonly string[];
  readonly hits: SignatureHits;
}

type Pass = (drafts: readonly Draft[], ctx: TriageContext) => readonly Draft[];

const PASSES: readonly Pass[] = [
  (d, ctx) => [...d, ...failureDrafts(ctx.inputs, ctx.merged, ctx.signatures)],
  (d, ctx) => [...d, ...unhandledDrafts(ctx.inputs, ctx.signatures, ctx.pendingFiles)],
  (d, ctx) => [...d, ...budgetDrafts(ctx.inputs, ctx.merged)],
  (d, ctx) => applyHistory(d, ctx.inputs.history),
  (d, ctx) => [...d, ...ctx.inputs.problems.filter((p) => p.kind !== 'missing-report').map(problemDraft)],
  (d, ctx) => supersedeDecided(d, ctx.hits, ctx.signatures),
  (d, ctx) => addLogSignatures(d, ctx.hits, ctx.signatures, ctx.pendingFiles),
  (d, ctx) => joinMissingReports(d, ctx.inputs.problems.filter((p) => p.kind === 'missing-report').map(problemDraft)),
  (d, ctx) => applyExitCode(d, ctx.inputs, ctx.signatures),
  (d, ctx) =>
    applyUnfinishedFiles(d, ctx.pendingFiles, (file) =>
      ctx.merged.filter((t) => t.state === 'pending' && t.file === file).flatMap((t) => t.origins),
    ),
];

/**
 * Quarantine exactly as the reporter applies it: a test under a quarantine that applied in the run
 * fails nothing, so its failure is no finding (its budget excess still is, as in the reporter). A
 * quarantine names no project: it excuses the test in every project (`refKey`), also where the
 * input that carried it (a JSON report under the checkout's quarantine) could not name the project.
 */
function excuseQuarantined(drafts: readonly Draft[], inputs: TriageInputs): readonly Draft[] {
  const excused = new Set(
    inputs.tests.flatMap((t) =>
      t.quarantined === true && t.file !== null ? [refKey({ file: t.file, fullName: t.fullName })] : [],
    ),
  );
  if (excused.size === 0) return drafts;
  return drafts.filter(
    (d) =>
      d.finding.class === 'budget' ||
      d.finding.file === null ||
      d.finding.fullName === null ||
      !excused.has(refKey({ file: d.finding.file, fullName: d.finding.fullName })),
  );
}

/** Only a retry flake (the run passed after a retry) leaves a run green. */
const needsAction = (d: Draft): boolean => d.kind !== 'retry-pass';

function compareFindings(a: Finding, b: Finding): number {
  return (
    CLASS_ORDER.indexOf(a.class) - CLASS_ORDER.indexOf(b.class) ||
    (a.file ?? '').localeCompare(b.file ?? '') ||
    (a.project ?? '').localeCompare(b.project ?? '') ||
    (a.fullName ?? '').localeCompare(b.fullName ?? '') ||
    a.rule.localeCompare(b.rule) ||
    a.cause.localeCompare(b.cause)
  );
}

function contextOf(given: TriageInputs, signatures: readonly LogSignature[]): TriageContext {
  const inputs = canonicalInputs(given);
  const merged = foldSuiteShadows(mergeObservations(inputs.tests));
  const pendingFiles = [
    ...new Set(merged.filter((t) => t.state === 'pending' && t.file !== null).map((t) => t.file as string)),
  ].sort();
  return { inputs, signatures, merged, pendingFiles, hits: hitsBySignature(inputs) };
}

export interface TriagePlan {
  /** Each failed test and each test over its limit: what the history store is asked about. */
  readonly historyQuestions: readonly TestId[];
  /** What `--rerun` runs: each failure that is not explained by infrastructure, once. */
  readonly rerunTargets: readonly RerunTarget[];
}

/** What to gather before deciding: the failure and budget passes alone, on the run's own inputs. */
export function planTriage(given: TriageInputs, signatures: readonly LogSignature[]): TriagePlan {
  const ctx = contextOf({ ...given, history: null, reruns: null }, signatures);
  const drafts = excuseQuarantined(
    PASSES.slice(0, 3).reduce<readonly Draft[]>((d, pass) => pass(d, ctx), []),
    ctx.inputs,
  );
  const targets = new Map<string, RerunTarget>();
  for (const { finding } of drafts)
    if (finding.rerunTarget) targets.set(testKey(finding.rerunTarget), finding.rerunTarget);
  return { historyQuestions: historyQuestions(drafts.map((d) => d.finding)), rerunTargets: [...targets.values()] };
}

export function computeTriage(given: TriageInputs, signatures: readonly LogSignature[]): TriageReport {
  const ctx = contextOf(given, signatures);
  const { inputs, merged } = ctx;
  let drafts = excuseQuarantined(
    PASSES.reduce<readonly Draft[]>((d, pass) => pass(d, ctx), []),
    inputs,
  );
  const red = (inputs.exitCode !== null && inputs.exitCode !== 0) || drafts.some(needsAction);
  if (red && !drafts.some(needsAction))
    drafts = [...drafts, silenceDraft(inputs, signatures, merged.filter((t) => t.state === 'failed').length)];
  const findings = attachReplays(
    attachFlakeCauses(
      attachChecks(
        drafts.map((d) => d.finding),
        inputs,
      ),
      inputs.tests,
      inputs.history ?? null,
    ),
    inputs.tests,
  ).sort(compareFindings);
  const counts: Record<FindingClass, number> = { infrastructure: 0, escape: 0, flake: 0, budget: 0 };
  for (const f of findings) counts[f.class] += 1;
  const history = inputs.history
    ? { branch: inputs.history.branch, window: inputs.history.window, tests: inputs.history.tests.length }
    : null;
  return {
    version: TRIAGE_VERSION,
    verdict: red ? 'red' : 'green',
    exitCode: inputs.exitCode,
    findings,
    counts,
    history,
  };
}
