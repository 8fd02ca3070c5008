/** Types of gate-replay-fixtures.mjs (plain JavaScript, so bench/replay.mjs reads it too). */
export declare const REPLAY_BASE: Record<string, string>;
export declare const REPLAY_BRANCH: Record<string, string>;
export declare const REPLAY_TRUTH: readonly {
  readonly kind: 'random' | 'order' | 'timing';
  readonly file: string;
  readonly name: string;
  readonly verdict: 'flaky' | 'order-dependent';
  readonly cause: 'random-or-concurrency' | 'order' | 'timing';
}[];
