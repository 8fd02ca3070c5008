/**
 * Findings that belong to the run rather than to one test: log signatures (a step before the
 * tests, a crash, a startup error), the exit code (137 is SIGKILL, not necessarily out of memory),
 * and the last resort when nothing explains a red exit: never silence.
 */
import type { LogSignature } from './triage-signatures.js';
import type { Finding, LogEvent, TriageInputs } from './triage-types.js';

const MAX_LOG_EVIDENCE = 6;

interface Hit {
  readonly input: string;
  readonly event: LogEvent;
}

function logLine(h: Hit): string {
  return `${h.input}:${h.event.line}: ${h.event.text.trim()}`;
}

function hitsBySignature(inputs: TriageInputs): Map<string, { hits: Hit[]; count: number }> {
  const out = new Map<string, { hits: Hit[]; count: number }>();
  for (const scan of inputs.logs) {
    for (const event of scan.events) {
      if (event.id.startsWith('vitest:')) continue;
      const entry = out.get(event.id) ?? { hits: [], count: 0 };
      entry.hits.push({ input: scan.input, event });
      out.set(event.id, entry);
    }
    for (const [id, n] of Object.entries(scan.counts)) {
      const entry = out.get(id);
      if (entry) entry.count += n;
    }
  }
  return out;
}

function withEvidence(f: Finding, lines: readonly string[]): Finding {
  const extra = lines.filter((l) => !f.evidence.includes(l));
  return extra.length === 0 ? f : { ...f, evidence: [...f.evidence, ...extra] };
}

function evidenceLines(entry: { hits: Hit[]; count: number }): string[] {
  const shown = entry.hits.slice(0, MAX_LOG_EVIDENCE).map(logLine);
  const more = entry.count - shown.length;
  return more > 0 ? [...shown, `(${more} more matching line${more === 1 ? '' : 's'} in the log)`] : shown;
}

/** Adds run-level findings for log signatures and attaches log lines to findings that used them. */
export function applyRunLevelSignatures(findings: Finding[], inputs: TriageInputs, signatures: readonly LogSignature[], pendingFiles: readonly string[]): void {
  const hits = hitsBySignature(inputs);
  const indexOfRule = (id: string): number => findings.findIndex((f) => f.rule === id);
  const superseded: LogSignature[] = [];
  for (const sig of signatures) {
    const entry = hits.get(sig.id);
    if (!entry || sig.scope === 'test' || sig.fallback === true) continue;
    if (sig.supersededBy?.some((id) => hits.has(id) || indexOfRule(id) !== -1)) {
      superseded.push(sig);
      continue;
    }
    const used = indexOfRule(sig.id);
    if (used !== -1) {
      const f = findings[used];
      if (f && !f.evidence.some((e) => /^[^ ]+:\d+: /.test(e) && e.includes(sig.match))) findings[used] = withEvidence(f, evidenceLines(entry).slice(0, 3));
      continue;
    }
    const first = entry.hits[0]?.event.text.trim() ?? '';
    const crash = sig.id === 'worker-crash' && pendingFiles.length === 1 ? (pendingFiles[0] ?? null) : null;
    findings.push({
      class: sig.class,
      test: null,
      file: crash,
      cause: `${sig.cause}: ${first.slice(0, 200)}`,
      evidence: crash ? [...evidenceLines(entry), `tests left pending (the worker never reported them) in ${crash}`] : evidenceLines(entry),
      measured: false,
      action: sig.action,
      rule: sig.id,
    });
  }
  for (const sig of superseded) {
    const entry = hits.get(sig.id);
    const target = sig.supersededBy?.map(indexOfRule).find((i) => i !== -1);
    if (entry && target !== undefined) {
      const f = findings[target];
      if (f) findings[target] = withEvidence(f, evidenceLines(entry).slice(0, 3));
    }
  }
}

const SIGNAL_EXITS: Record<number, { id: string; cause: string; action: string }> = {
  137: { id: 'exit-137', cause: 'killed by SIGKILL (exit 137): out-of-memory killer or a timeout kill; no OOM message seen', action: "check the runner's memory and the job time limit; re-run to see whether it repeats" },
  143: { id: 'exit-143', cause: 'terminated by SIGTERM (exit 143): the job was cancelled or hit its time limit', action: 'check the job time limit and whether a newer push cancelled the run' },
  130: { id: 'exit-130', cause: 'interrupted by SIGINT (exit 130)', action: 'the run was stopped by hand or by the runner; run it again' },
  134: { id: 'exit-134', cause: 'aborted by SIGABRT (exit 134): Node aborts this way on a fatal error such as heap out of memory', action: 'read the fatal error above the abort in the log' },
};

const OOM_IDS = ['heap-out-of-memory', 'oom-killer'];

/** An exit code that a signal explains (137, 143, 130, 128+n) gets its finding, or joins one. */
export function applyExitCode(findings: Finding[], inputs: TriageInputs, signatures: readonly LogSignature[]): void {
  const code = inputs.exitCode;
  if (code === null || code <= 128) return;
  const line = `exit code ${code} (${inputs.exitCodeOrigin ?? 'given'})`;
  const known = SIGNAL_EXITS[code];
  const own = known ? signatures.find((s) => s.id === known.id) : undefined;
  const id = known?.id ?? `exit-${code}`;
  const joinIds = [id, ...(own?.supersededBy ?? []), ...(code === 137 || code === 134 ? OOM_IDS : [])];
  let target = findings.findIndex((f) => joinIds.includes(f.rule));
  // Any other signal exit is the end of the run-level failure the log already names (not 137:
  // a SIGKILL is its own finding unless an OOM line explains it).
  if (target === -1 && code !== 137) target = findings.findIndex((f) => f.class === 'infrastructure' && f.test === null && f.file === null && !f.rule.startsWith('report-'));
  if (target !== -1) {
    const f = findings[target];
    if (f) findings[target] = withEvidence(f, [line]);
    return;
  }
  findings.push({
    class: 'infrastructure',
    test: null,
    file: null,
    cause: own?.cause ?? known?.cause ?? `killed by signal ${code - 128} (exit ${code})`,
    evidence: [line],
    measured: false,
    action: own?.action ?? known?.action ?? 'find which process was killed and why (memory, time limit, cancellation)',
    rule: id,
  });
}

/**
 * A file whose tests were left pending (the JSON report: Vitest 4 `passed`, Vitest 5 `failed` with
 * an empty message) never finished. When no finding names it, it joins the run-level infrastructure
 * finding that explains the stop (a kill, a crash), or becomes its own finding.
 */
export function applyUnfinishedFiles(findings: Finding[], pendingFiles: readonly string[], originsOf: (file: string) => readonly string[]): void {
  for (const file of pendingFiles) {
    if (findings.some((f) => f.file === file)) continue;
    const line = `tests left pending (the worker never reported them) in ${file}`;
    const origins = originsOf(file);
    const target = findings.findIndex((f) => f.class === 'infrastructure' && f.test === null && f.file === null && !f.rule.startsWith('report-'));
    const f = findings[target];
    if (f) {
      findings[target] = withEvidence(f, [line]);
      continue;
    }
    findings.push({
      class: 'infrastructure',
      test: null,
      file,
      cause: `the file never finished: its tests were left pending (its worker died, was killed, or the run stopped) and no input says why`,
      evidence: [line, ...origins.slice(0, 4), ...(origins.length > 4 ? [`(${origins.length - 4} more pending entries)`] : [])],
      measured: false,
      action: 'read the CI log around this file for a worker crash or a kill; pass --log to triage so it can name the cause',
      rule: 'unfinished-file',
    });
  }
}

/** The last resort: a red run that nothing above explains. */
export function silenceFinding(inputs: TriageInputs, signatures: readonly LogSignature[], failedTests: number): Finding {
  const hits = hitsBySignature(inputs);
  const fallback = signatures.find((s) => s.fallback === true && hits.has(s.id));
  const entry = fallback ? hits.get(fallback.id) : undefined;
  const exit = inputs.exitCode === null ? 'a red run' : `exit code ${inputs.exitCode}`;
  if (fallback && entry) {
    return { class: fallback.class, test: null, file: null, cause: `${exit} with no failing test: ${fallback.cause}`, evidence: evidenceLines(entry), measured: false, action: fallback.action, rule: fallback.id };
  }
  const tail = inputs.logs.flatMap((scan) => scan.tail.slice(-8).map((t) => `${scan.input}:${t.line}: ${t.text}`));
  const evidence = [
    ...(inputs.exitCodeOrigin ? [`exit code ${inputs.exitCode ?? '?'} (${inputs.exitCodeOrigin})`] : []),
    `${failedTests} failed tests, no unhandled error, no budget excess and no known log signature in the inputs`,
    ...(tail.length > 0 ? ['last lines of the log:', ...tail] : ['no log given: pass --log to see the step that failed']),
  ];
  return {
    class: 'infrastructure',
    test: null,
    file: null,
    cause: `${exit} that no test explains: a step before or after the tests failed, or the test output is missing from the inputs`,
    evidence,
    measured: false,
    action: 'read the last lines of the log above; add a triage.patterns rule in flakeguard.yaml for this signature so the next triage names it',
    rule: 'unexplained-exit',
  };
}
