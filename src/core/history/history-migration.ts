/** One step of the history store's schema (history-schema.ts lists them). */
export interface Migration {
  /** The schema version the store has after this migration. */
  readonly version: number;
  readonly statements: readonly string[];
}
