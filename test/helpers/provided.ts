/** What the e2e and release tiers' global setups provide to the test workers (`inject`). */
declare module 'vitest' {
  export interface ProvidedContext {
    /** The file `countProcess` appends to: one `<test file>\t<kind>` line per process or store (process-budget.ts). */
    processCounter: string;
    /** The folder of the migrated, empty embedded store made once per run (history-template.ts). */
    historyTemplate: string;
    /** dist/ is no older than src/ (dist-fresh.ts): the e2e and release tiers run the built package. */
    builtPackage: boolean;
  }
}

export {};
