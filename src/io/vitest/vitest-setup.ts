/**
 * How the user runs Vitest, passed through to every Vitest flakeguard starts (the gate's tries and
 * its list of test files): `--config <file>` and `--project <name>` as Vitest's own CLI takes them.
 */
export interface VitestSetup {
  /** Config file (absolute), or null for Vitest's own lookup from the root. */
  readonly config: string | null;
  /** Project names to keep (Vitest's `--project`, wildcards allowed); empty = every project. */
  readonly projects: readonly string[];
}

export const DEFAULT_SETUP: VitestSetup = { config: null, projects: [] };

/** The options createVitest takes for this setup, on top of the caller's own. */
export function setupOptions(root: string, setup: VitestSetup): Record<string, unknown> {
  return {
    root,
    ...(setup.config === null ? {} : { config: setup.config }),
    ...(setup.projects.length === 0 ? {} : { project: [...setup.projects] }),
  };
}
