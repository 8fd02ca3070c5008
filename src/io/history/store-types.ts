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

export type HistoryTarget = { readonly kind: 'embedded'; readonly folder: string } | { readonly kind: 'postgres'; readonly url: string };

export interface OpenOptions {
  /** How long to wait for another process holding the embedded store (ms). */
  readonly lockTimeoutMs?: number;
  /** Refuse to create an embedded store that does not exist yet (queries). */
  readonly mustExist?: boolean;
}
