/**
 * Why a test is flaky: one finding per flaky, fragile or order-dependent gate test and per triage
 * flake: a class, how sure (measured from the gate's own tries under a condition it controls, or
 * inferred from error texts and history), the evidence, and the fix pattern in one line with the
 * test's own place. The classes follow the root causes of Luo et al., "An empirical analysis of
 * flaky tests" (FSE 2014), as far as the gate's conditions can tell them apart. Pure.
 */

/** Significance of a measured difference (the same level as fragile, core/gate/factor-evidence.ts). */
export const CAUSE_ALPHA = 0.05;

export const CAUSE_CLASSES = ['timing', 'cold-start', 'order', 'random-or-concurrency', 'network', 'unknown'] as const;
export type CauseClass = (typeof CAUSE_CLASSES)[number];

/** Where a piece of evidence comes from. */
export type CauseEvidenceKind =
  | 'factor' // failures by slowdown factor (reference, higher, unthrottled)
  | 'cold' // failures by cold / warm try
  | 'alone' // with its file vs alone
  | 'error' // a failed try's error text
  | 'source' // a line of the test's own source (supporting only)
  | 'history'; // past CI runs (triage)

export interface CauseEvidence {
  readonly kind: CauseEvidenceKind;
  readonly text: string;
  /** The source line it points at (source signals), when it has one. */
  readonly line?: number;
}

export interface CauseFinding {
  readonly class: CauseClass;
  /** measured: shown by the gate's own tries; inferred: read from texts or history. */
  readonly confidence: 'measured' | 'inferred';
  readonly evidence: readonly CauseEvidence[];
  /** The fix pattern for the class, in one line, naming the test's own file:line. */
  readonly fix: string;
}

/**
 * A line of the test's own source that supports a class (core/source/source-signals.ts): shown as
 * evidence, and the fix names its line when the measured class is one it supports. Never a class.
 */
export interface SourceSignal {
  readonly line: number;
  readonly text: string;
  readonly classes: readonly CauseClass[];
  /** The fix at that line, without the place: "await the event instead of `setTimeout(10)`". */
  readonly fix: string;
}

export const signalEvidence = (s: SourceSignal): CauseEvidence => ({ kind: 'source', text: s.text, line: s.line });

const FIXES: Readonly<Record<CauseClass, (at: string) => string>> = {
  timing: (at) =>
    `await the event instead of a fixed wait or a wall-clock limit, or vi.useFakeTimers() and advance time, at ${at}`,
  'cold-start': (at) =>
    `do the first-time work (module load, first connection) in beforeAll and await it before the test's own clock starts, at ${at}`,
  order: (at) => `reset the module state in beforeEach, or set up what the test needs in the test itself, at ${at}`,
  'random-or-concurrency': (at) =>
    `seed the generator (or inject the random source) and await every promise the test starts, at ${at}`,
  network: (at) => `listen on port 0 and read the port back, or mock the network, at ${at}`,
  unknown: (at) => `no pattern decided: run the gate with a higher --max-tries for more evidence; the test is at ${at}`,
};

export function makeCause(
  cls: CauseClass,
  confidence: CauseFinding['confidence'],
  evidence: readonly CauseEvidence[],
  place: { readonly file: string; readonly line: number | null },
  signals: readonly SourceSignal[] = [],
): CauseFinding {
  const at = place.line === null ? place.file : `${place.file}:${place.line}`;
  return withSignals({ class: cls, confidence, evidence, fix: FIXES[cls](at) }, signals, place.file);
}

/** The finding with source signals added as evidence; the fix names the first signal of its class, if one is. */
export function withSignals(c: CauseFinding, signals: readonly SourceSignal[], file: string): CauseFinding {
  if (signals.length === 0) return c;
  const match = signals.find((s) => s.classes.includes(c.class));
  return {
    ...c,
    evidence: [...c.evidence, ...signals.map(signalEvidence)],
    fix: match ? `${match.fix} at ${file}:${match.line}` : c.fix,
  };
}

/** "timing (measured)": the class as the text and the tables say it. */
export const causeLabel = (c: CauseFinding): string => `${c.class} (${c.confidence})`;

/** One piece of evidence as a sentence: "line 12: setTimeout(…) before a timed assertion". */
export const describeEvidence = (e: CauseEvidence): string =>
  e.line === undefined ? e.text : `line ${e.line}: ${e.text}`;

/** "cause: timing (measured): failed 2/2 tries from x4.1 up, …": the line the text report and the comment print. */
export const describeCause = (c: CauseFinding, label = 'cause'): string =>
  `${label}: ${causeLabel(c)}${c.evidence.length > 0 ? `: ${c.evidence.map(describeEvidence).join('; ')}` : ''}`;
