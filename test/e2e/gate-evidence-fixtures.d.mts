/** Types of gate-evidence-fixtures.mjs (plain JavaScript, so bench/gate-contention.mjs reads it too). */
export declare const COUNTER: string;
/** A TypeScript function spin(ms): CPU work of ms milliseconds by the worker's own CPU clock. */
export declare const SPIN: string;
export declare const EVIDENCE_BASE: Record<string, string>;
export declare const EVIDENCE_BRANCH: Record<string, string>;
export declare const EVIDENCE_TRUTH: readonly {
  readonly file: string;
  readonly name: string;
  readonly verdict: 'stable' | 'flaky' | 'order-dependent' | 'near-budget' | 'over-budget';
  readonly cause?: 'timing' | 'random-or-concurrency' | 'order' | 'cold-start';
  readonly loadSensitive?: boolean;
}[];
