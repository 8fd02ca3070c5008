/** The history store's shape, shared by both engines (history-store.ts opens one). */

export interface Queryable {
  query<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

export interface HistoryStore extends Queryable {
  readonly kind: 'embedded' | 'postgres';
  /** Where it is, for messages: the folder, or the URL without its password. */
  readonly location: string;
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** An embedded store's lock file is `lock` (the cache folder, see io/places), else `<folder>.lock`. */
export type HistoryTarget =
  | { readonly kind: 'embedded'; readonly folder: string; readonly lock?: string }
  | { readonly kind: 'postgres'; readonly url: string };

export interface OpenOptions {
  /**
   * Who waits for another process holding the embedded store: a test run (the reporter, triage, the
   * gate) waits briefly and goes on without history; a history command waits longer. The waits are
   * set in one place, history-store.ts's LOCK_WAIT_MS.
   */
  readonly wait?: 'test-run' | 'history-command';
  /** Overrides the wait (ms): for tests of the lock itself. */
  readonly lockTimeoutMs?: number;
  /** Refuse to create an embedded store that does not exist yet (queries). */
  readonly mustExist?: boolean;
  /** Stops waiting for the lock (Ctrl-C): the open throws interruptedError. */
  readonly signal?: AbortSignal;
}
