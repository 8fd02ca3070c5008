/**
 * The last passes: the exit code (a signal exit is a finding or joins the one the log names; a
 * crash's finding carries the exit code as its evidence), files left unfinished (a worker died
 * before reporting them), and the finding for a red run that nothing explains.
 */

import { interruptedDraft } from './triage-interrupted.js';
import { addEvidence, type Draft, isRunLevelCause, makeDraft, updateFirst } from './triage-rule.js';
import { evidenceLines, hitsBySignature } from './triage-run-level.js';
import type { LogSignature } from './triage-signatures.js';
import type { TriageInputs } from './triage-types.js';

const SIGNAL_EXITS: Record<number, { id: string; cause: string; action: string }> = {
  137: {
    id: 'exit-137',
    cause: 'killed by SIGKILL (exit 137): out-of-memory killer or a timeout kill; no OOM message seen',
    action: "check the runner's memory and the job time limit; re-run to see whether it repeats",
  },
  143: {
    id: 'exit-143',
    cause: 'terminated by SIGTERM (exit 143): the job was cancelled or hit its time limit',
    action: 'check the job time limit and whether a newer push cancelled the run',
  },
  130: {
    id: 'exit-130',
    cause: 'interrupted by SIGINT (exit 130)',
    action: 'the run was stopped by hand or by the runner; run it again',
  },
  134: {
    id: 'exit-134',
    cause: 'aborted by SIGABRT (exit 134): Node aborts this way on a fatal error such as heap out of memory',
    action: 'read the fatal error above the abort in the log',
  },
};

const OOM_IDS = ['heap-out-of-memory', 'oom-killer'];
/** Signatures of a process that died: the run's exit code is part of their evidence. */
const CRASH_IDS = ['worker-crash', 'segfault', ...OOM_IDS];

const isSignature =
  (ids: readonly string[]) =>
  (d: Draft): boolean =>
    d.kind === 'signature' && d.signature !== null && ids.includes(d.signature);

/** An exit code that a signal explains (137, 143, 130, 128+n) gets its finding, or joins one; a crash's finding gets the exit code as evidence. */
export function applyExitCode(
  drafts: readonly Draft[],
  inputs: TriageInputs,
  signatures: readonly LogSignature[],
): Draft[] {
  const code = inputs.exitCode;
  if (code === null || code === 0) return [...drafts];
  const line = `exit code ${code} (${inputs.exitCodeOrigin ?? 'given'})`;
  if (code <= 128) return drafts.map((d) => (isSignature(CRASH_IDS)(d) ? addEvidence(d, [line]) : d));
  const known = SIGNAL_EXITS[code];
  const own = known ? signatures.find((s) => s.id === known.id) : undefined;
  const id = known?.id ?? `exit-${code}`;
  const joinIds = [id, ...(own?.supersededBy ?? []), ...(code === 137 || code === 134 ? OOM_IDS : [])];
  const joined =
    updateFirst(drafts, isSignature(joinIds), (d) => addEvidence(d, [line])) ??
    // Any other signal exit is the end of the run-level failure the log already names (not 137:
    // a SIGKILL is its own finding unless an OOM line explains it).
    (code !== 137 ? updateFirst(drafts, isRunLevelCause, (d) => addEvidence(d, [line])) : null);
  if (joined) return joined;
  const finding = {
    class: 'infrastructure' as const,
    project: null,
    fullName: null,
    file: null,
    cause: own?.cause ?? known?.cause ?? `killed by signal ${code - 128} (exit ${code})`,
    evidence: [line],
    measured: false,
    action: own?.action ?? known?.action ?? 'find which process was killed and why (memory, time limit, cancellation)',
    rule: id,
  };
  return [...drafts, own ? makeDraft(finding, 'signature', 'exit', id) : makeDraft(finding, 'signal-exit', 'exit')];
}

/**
 * A file whose tests were left pending (the JSON report: Vitest 4 `passed`, Vitest 5 `failed` with
 * an empty message) never finished. When no finding names it, it joins the run-level infrastructure
 * finding that explains the stop (a kill, a crash), or becomes its own finding.
 */
export function applyUnfinishedFiles(
  drafts: readonly Draft[],
  pendingFiles: readonly string[],
  originsOf: (file: string) => readonly string[],
): Draft[] {
  let out = [...drafts];
  for (const file of pendingFiles) {
    const line = `tests left pending (the worker never reported them) in ${file}`;
    const origins = originsOf(file);
    // The crash finding on this file: the report's pending entries are its evidence too.
    const named = updateFirst(
      out,
      (d) => d.finding.file === file && d.finding.fullName === null && d.finding.class === 'infrastructure',
      (d) => addEvidence(d, origins.slice(0, 1)),
    );
    if (named) {
      out = named;
      continue;
    }
    if (out.some((d) => d.finding.file === file)) continue;
    const joined = updateFirst(out, isRunLevelCause, (d) => addEvidence(d, [line]));
    if (joined) {
      out = joined;
      continue;
    }
    const finding = {
      class: 'infrastructure' as const,
      project: null,
      fullName: null,
      file,
      cause: `the file never finished: its tests were left pending (its worker died, was killed, or the run stopped) and no input says why`,
      evidence: [
        line,
        ...origins.slice(0, 4),
        ...(origins.length > 4 ? [`(${origins.length - 4} more pending entries)`] : []),
      ],
      measured: false,
      action:
        'read the CI log around this file for a worker crash or a kill; pass --log to triage so it can name the cause',
      rule: 'unfinished-file',
    };
    out.push(makeDraft(finding, 'unfinished-file', 'unfinished'));
  }
  return out;
}

/** The last resort: a red run that nothing above explains (a run the records say was interrupted is that). */
export function silenceDraft(inputs: TriageInputs, signatures: readonly LogSignature[], failedTests: number): Draft {
  const hits = hitsBySignature(inputs);
  const fallback = signatures.find((s) => s.fallback === true && hits.has(s.id));
  const entry = fallback ? hits.get(fallback.id) : undefined;
  const exit = inputs.exitCode === null ? 'a red run' : `exit code ${inputs.exitCode}`;
  if (!(fallback && entry) && (inputs.interrupted?.length ?? 0) > 0) return interruptedDraft(inputs, exit);
  if (fallback && entry) {
    return makeDraft(
      {
        class: fallback.class,
        project: null,
        fullName: null,
        file: null,
        cause: `${exit} with no failing test: ${fallback.cause}`,
        evidence: evidenceLines(entry),
        measured: false,
        action: fallback.action,
        rule: fallback.id,
      },
      'signature',
      'silence',
      fallback.id,
    );
  }
  const tail = inputs.logs.flatMap((scan) => scan.tail.slice(-8).map((t) => `${scan.input}:${t.line}: ${t.text}`));
  const evidence = [
    ...(inputs.exitCodeOrigin ? [`exit code ${inputs.exitCode ?? '?'} (${inputs.exitCodeOrigin})`] : []),
    `${failedTests} failed tests, no unhandled error, no budget excess and no known log signature in the inputs`,
    ...(tail.length > 0
      ? ['last lines of the log:', ...tail]
      : ['no log given: pass --log to see the step that failed']),
  ];
  const finding = {
    class: 'infrastructure' as const,
    project: null,
    fullName: null,
    file: null,
    cause: `${exit} that no test explains: a step before or after the tests failed, or the test output is missing from the inputs`,
    evidence,
    measured: false,
    action:
      'read the last lines of the log above; add a triage.patterns rule in flakeguard.yaml for this signature so the next triage names it',
    rule: 'unexplained-exit',
  };
  return makeDraft(finding, 'unexplained-exit', 'silence');
}
