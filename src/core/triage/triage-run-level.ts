/**
 * Passes over the drafts that belong to the run rather than to one test: log signatures (a step
 * before the tests, a crash, a startup error), a report that was never written, the exit code (137
 * is SIGKILL, not necessarily out of memory), files left unfinished, and the last resort when
 * nothing explains a red exit: never silence. Each pass returns new drafts; one event stays one
 * finding (a log line that explains a finding is its evidence, not a second finding).
 */

import { addEvidence, type Draft, isRunLevelCause, makeDraft, updateFirst } from './triage-rule.js';
import type { LogSignature } from './triage-signatures.js';
import type { LogEvent, TriageInputs } from './triage-types.js';

const MAX_LOG_EVIDENCE = 6;

interface Hit {
  readonly input: string;
  readonly event: LogEvent;
}

export type SignatureHits = ReadonlyMap<string, { readonly hits: readonly Hit[]; readonly count: number }>;

function logLine(h: Hit): string {
  return `${h.input}:${h.event.line}: ${h.event.text.trim()}`;
}

export function hitsBySignature(inputs: TriageInputs): SignatureHits {
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

export function evidenceLines(entry: { readonly hits: readonly Hit[]; readonly count: number }): string[] {
  const shown = entry.hits.slice(0, MAX_LOG_EVIDENCE).map(logLine);
  const more = entry.count - shown.length;
  return more > 0 ? [...shown, `(${more} more matching line${more === 1 ? '' : 's'} in the log)`] : shown;
}

const decidedBy =
  (id: string) =>
  (d: Draft): boolean =>
    d.kind === 'signature' && d.signature === id;

/**
 * A finding decided by a signature that a more specific one supersedes, when that one hit the log
 * (a worker crash whose log shows the heap running out): the same finding, now with the more
 * specific cause. One event, one finding.
 */
export function supersedeDecided(
  drafts: readonly Draft[],
  hits: SignatureHits,
  signatures: readonly LogSignature[],
): Draft[] {
  return drafts.map((d) => {
    const own = d.kind === 'signature' ? signatures.find((s) => s.id === d.signature) : undefined;
    const by = own?.supersededBy
      ?.map((id) => signatures.find((s) => s.id === id))
      .find((s) => s !== undefined && hits.has(s.id));
    if (!by || drafts.some(decidedBy(by.id))) return d;
    const first = hits.get(by.id)?.hits[0]?.event.text.trim() ?? '';
    const f = d.finding;
    return {
      ...d,
      signature: by.id,
      finding: {
        ...f,
        class: by.class,
        cause: `${by.cause}: ${first.slice(0, 200)}`,
        evidence: [...f.evidence, `first seen as: ${f.cause}`],
        action: by.action,
        rule: by.id,
      },
    };
  });
}

/** Run-level findings for log signatures; a signature that already decided a finding adds its log lines to it. */
export function addLogSignatures(
  drafts: readonly Draft[],
  hits: SignatureHits,
  signatures: readonly LogSignature[],
  pendingFiles: readonly string[],
): Draft[] {
  let out = [...drafts];
  const superseded: LogSignature[] = [];
  for (const sig of signatures) {
    const entry = hits.get(sig.id);
    if (!entry || sig.scope === 'test' || sig.fallback === true) continue;
    if (sig.supersededBy?.some((id) => hits.has(id) || out.some(decidedBy(id)))) {
      superseded.push(sig);
      continue;
    }
    const joined = updateFirst(out, decidedBy(sig.id), (d) =>
      d.finding.evidence.some((e) => /^[^ ]+:\d+: /.test(e) && e.includes(sig.match))
        ? d
        : addEvidence(d, evidenceLines(entry).slice(0, 3)),
    );
    if (joined) {
      out = joined;
      continue;
    }
    const first = entry.hits[0]?.event.text.trim() ?? '';
    const crash = sig.id === 'worker-crash' && pendingFiles.length === 1 ? (pendingFiles[0] ?? null) : null;
    const finding = {
      class: sig.class,
      project: null,
      fullName: null,
      file: crash,
      cause: `${sig.cause}: ${first.slice(0, 200)}`,
      evidence: crash
        ? [...evidenceLines(entry), `tests left pending (the worker never reported them) in ${crash}`]
        : evidenceLines(entry),
      measured: false,
      action: sig.action,
      rule: sig.id,
    };
    out.push(makeDraft(finding, 'signature', 'log', sig.id));
  }
  for (const sig of superseded) {
    const entry = hits.get(sig.id);
    if (!entry) continue;
    const target = sig.supersededBy?.find((id) => out.some(decidedBy(id)));
    if (target !== undefined)
      out = updateFirst(out, decidedBy(target), (d) => addEvidence(d, evidenceLines(entry).slice(0, 3))) ?? out;
  }
  return out;
}

/** A report that was never written is part of the startup failure the log names, when it names one. */
export function joinMissingReports(drafts: readonly Draft[], missing: readonly Draft[]): Draft[] {
  let out = [...drafts];
  for (const m of missing)
    out = updateFirst(out, isRunLevelCause, (d) => addEvidence(d, [m.finding.cause])) ?? [...out, m];
  return out;
}
