/**
 * History as measured evidence for triage. The edge asks the history store about each failed or
 * slow test (on the default branch) and passes the answers in as plain facts; this pass turns them
 * into evidence: a failure that failed and then passed before without a change of code is a known
 * flake (even without --rerun); an escape that never failed in its recorded runs names its last
 * green run (commit, date), so the change that broke it is the range since; a test over its limit
 * names its duration trend. Pure.
 */
import { formatDuration } from '../duration.js';
import { computeDurationTrend } from '../history/history-trend.js';
import { describeDurationTrend } from '../history/history-trend-text.js';
import { type TestId, testKey } from '../test-id.js';
import { describeCheck } from './triage-caught-by.js';
import type { HistoryRunFact, TestHistoryFacts, TriageHistory } from './triage-history-facts.js';
import { type Draft, makeDraft } from './triage-rule.js';
import type { Finding } from './triage-types.js';

export type { HistoryRunFact, TestHistoryFacts, TriageHistory } from './triage-history-facts.js';

const MEASURED = 'history (measured)';
const short = (commit: string | null): string => (commit === null ? 'a run outside git' : commit.slice(0, 12));
const day = (iso: string): string => iso.slice(0, 16).replace('T', ' ') + ' UTC';
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
const describeRun = (r: HistoryRunFact): string => `${short(r.commit)} (${day(r.startedAt)})`;

/** Failed and then passed without a change of code: on a retry in the run, or on a re-run of the same commit. */
function isKnownFlake(f: TestHistoryFacts): boolean {
  return f.retried.length + f.rerunPassed.length > 0;
}

/** "failed 2 of the last 40 runs on main, each passed on a re-run of the same commit (latest ...); 1 run passed only on a retry". */
function flakeLine(f: TestHistoryFacts, branch: string): string {
  const parts: string[] = [];
  if (f.failedRuns > 0) {
    const each = f.rerunPassed.length === f.failedRuns ? 'each' : `${f.rerunPassed.length} of them`;
    parts.push(
      `failed ${f.failedRuns} of the last ${plural(f.runs, 'run')} on ${branch}${f.rerunPassed.length > 0 ? `, ${each} passed on a re-run of the same commit (latest ${describeRun(f.rerunPassed[0]!)})` : ''}`,
    );
  } else parts.push(`never failed a whole run in the last ${plural(f.runs, 'run')} on ${branch}`);
  if (f.retried.length > 0)
    parts.push(`${plural(f.retried.length, 'run')} passed only on a retry (latest ${describeRun(f.retried[0]!)})`);
  return `${MEASURED}: ${parts.join('; ')}`;
}

/** `<commit> (<date>), job <check or stored job label>`: a run with the check it ran in, when known. */
function describeRunAndJob(r: HistoryRunFact): string {
  const job = (r.check ? describeCheck(r.check) : null) ?? r.job ?? null;
  return job === null ? describeRun(r) : `${describeRun(r)}, job ${job}${r.check?.runUrl ? ` ${r.check.runUrl}` : ''}`;
}

/** An escape: which check caught it first on the branch (the oldest failed run since its last pass), or that this run is the first. */
function firstCaughtLine(f: TestHistoryFacts, branch: string): string {
  if (!f.firstFailure)
    return `${MEASURED}: no earlier failure on ${branch} since it last passed: this run's check is the first to catch it`;
  return `${MEASURED}: first caught on ${branch} in the run of ${describeRunAndJob(f.firstFailure)}`;
}

/** "never failed in its last 40 recorded runs on main; last passed in the run of <commit> (<date>)". */
function lastPassLine(f: TestHistoryFacts, branch: string): string {
  if (f.lastPass === null)
    return `${MEASURED}: never passed in its last ${plural(f.runs, 'recorded run')} on ${branch}`;
  const since =
    f.failedRuns === 0 && !isKnownFlake(f)
      ? `never failed in its last ${plural(f.runs, 'recorded run')} on ${branch}; last passed`
      : `last passed on ${branch}`;
  return `${MEASURED}: ${since} in the run of ${describeRunAndJob(f.lastPass)}`;
}

/** "4.90s of 5.00s (linux, 12 passed runs on main), +40ms a day (95% CI ...; +12ms a run): crosses in about 2.5 days (1.9 to 3.4)". */
function trendLine(f: TestHistoryFacts, branch: string): string | null {
  const newest = f.durations.at(-1);
  if (newest === undefined) return null;
  const points = f.durations.filter((d) => d.platform === newest.platform);
  // The same trend and projection rule as the history report (core/history/history-trend.ts).
  const trend = computeDurationTrend(
    points.map((p) => ({ atMs: p.atMs, durationMs: p.durationMs, passed: true })),
    newest.limitMs,
  );
  const level = trend.perRun?.level ?? newest.durationMs;
  return `${MEASURED}: ${formatDuration(level)} of ${formatDuration(newest.limitMs)} (${newest.platform}, ${plural(points.length, 'passed run')} on ${branch}), ${describeDurationTrend(trend)}`;
}

function evidenceWith(d: Draft, lines: readonly (string | null)[]): Draft['finding'] {
  const extra = lines.filter((l): l is string => l !== null && !d.finding.evidence.includes(l));
  return { ...d.finding, evidence: [...d.finding.evidence, ...extra] };
}

/** The failure's own cause without the "escape (inferred: not re-run): " prefix. */
const bareCause = (cause: string): string => cause.replace(/^escape \(inferred: not re-run\): /, '');

function withHistory(d: Draft, f: TestHistoryFacts, branch: string): Draft {
  if (d.kind === 'budget-test') return { ...d, finding: evidenceWith(d, [trendLine(f, branch)]) };
  if (d.source !== 'failure' || d.finding.class === 'infrastructure') return d;
  const known = isKnownFlake(f);
  if (d.kind === 'failed-not-rerun' && known) {
    const finding = {
      ...evidenceWith(d, [flakeLine(f, branch)]),
      class: 'flake' as const,
      cause: `a known flake: it failed and then passed before on ${branch} without a change of code; now: ${bareCause(d.finding.cause)}`,
      measured: true,
      action:
        'stabilise it: wait for exactly what the assertion checks; observe completion before measuring; quarantine it meanwhile (flakeguard quarantine add) if it blocks merges',
      rule: 'history-flake',
    };
    return makeDraft(finding, 'history-flake', d.source);
  }
  if (d.kind === 'rerun-failed' && !known && f.failedRuns === 0 && f.lastPass !== null) {
    const pass = f.lastPass;
    const range = pass.commit === null ? 'the changes since that run' : `${pass.commit.slice(0, 12)}..HEAD`;
    const finding = {
      ...evidenceWith(d, [firstCaughtLine(f, branch), lastPassLine(f, branch)]),
      cause: `${d.finding.cause}; it never failed in its ${plural(f.runs, 'recorded run')} on ${branch} and last passed at ${describeRun(pass)}`,
      action: `${d.finding.action}; the change that broke it is in ${range}`,
    };
    return { ...d, finding };
  }
  const first = d.finding.class === 'escape' ? firstCaughtLine(f, branch) : null;
  return {
    ...d,
    finding: evidenceWith(d, [known || f.failedRuns > 0 ? flakeLine(f, branch) : null, first, lastPassLine(f, branch)]),
  };
}

/** The pass: each failure and budget draft of a test the store knows gets its history. */
export function applyHistory(drafts: readonly Draft[], history: TriageHistory | null | undefined): readonly Draft[] {
  if (!history) return drafts;
  const byKey = new Map(history.tests.map((t) => [testKey(t), t]));
  return drafts.map((d) => {
    const { file, fullName: test } = d.finding;
    const facts = file === null || test === null ? undefined : byKey.get(testKey(d.finding));
    return facts === undefined || facts.runs === 0 ? d : withHistory(d, facts, history.branch);
  });
}

/** The tests triage asks the store about: each failed test and each test over its limit. */
export function historyQuestions(findings: readonly Finding[]): TestId[] {
  const seen = new Map<string, TestId>();
  for (const f of findings) {
    const { project, file, fullName: test } = f;
    if (file === null || test === null || f.class === 'infrastructure') continue;
    // project null (no input named it): the store answers for the test in every project.
    seen.set(testKey(f), { project, file, fullName: test });
  }
  return [...seen.values()];
}
