/** What a wave of tries is planned from and what it plans (core/gate/try-schedule.ts, warm-schedule.ts). Pure. */
export interface TryTally {
  readonly passed: number;
  readonly failed: number;
}

export interface WaveInput {
  /** Each planned test and the file (run unit) it belongs to. */
  readonly tests: readonly { readonly key: string; readonly fileKey: string }[];
  /** Tries so far by test key (missing = none). */
  readonly tally: ReadonlyMap<string, TryTally>;
  /** Measured wall time of one try of each file (missing = not measured yet). */
  readonly costMs: ReadonlyMap<string, number>;
  readonly minTries: number;
  readonly maxTries: number;
  readonly budgetMs: number;
  readonly elapsedMs: number;
  /** Tries Vitest ran at once in the waves so far (at least 1). */
  readonly parallel: number;
  /** Waves already run (0 before the first). */
  readonly wave: number;
  /** Copies of each file the first wave runs (default minTries; fewer when warm repeats make up the rest). */
  readonly coldTries?: number;
  /** Extra tries as warm repeats in one worker per file (planWarmWave), not more cold workers. */
  readonly warm?: boolean;
  /** Each test's mean try duration so far, by test key (warm repeats are planned by it). */
  readonly meanMs?: ReadonlyMap<string, number>;
  /**
   * What an earlier call measured: each test's mean try, each file's cold cost. With them a call of
   * one cold try and warm repeats plans its repeats into the first wave (the cold try is each
   * worker's first run), instead of a cold wave and then a warm worker of every file again.
   */
  readonly hints?: { readonly meanMs: ReadonlyMap<string, number>; readonly costMs: ReadonlyMap<string, number> };
}

export interface WaveFile {
  readonly fileKey: string;
  readonly copies: number;
  /** Warm repeats after each copy's first try, by test key (absent: none). */
  readonly repeats?: ReadonlyMap<string, number>;
}

export const tries = (t: TryTally | undefined): number => (t ? t.passed + t.failed : 0);

/** A test whose verdict more tries can still change. */
export function wantsMoreTries(t: TryTally | undefined, maxTries: number): boolean {
  if (t === undefined) return true;
  return !(t.passed > 0 && t.failed > 0) && tries(t) < maxTries;
}
