/**
 * Where a run ran: the CI provider, workflow, job, run id and attempt, the run's page, branch,
 * commit, runner OS and shard, mapped from each provider's documented environment variables.
 * Nothing is invented: a value the provider does not set is null. Pure; the reporter reads the
 * environment once and passes it in. Variables, per provider, in docs/run-record.md ("ci").
 */

import { type CiContext, type CiProvider, type CiShard, type Get, PROVIDERS } from './ci-providers.js';

export type { CiContext, CiProvider, CiShard } from './ci-providers.js';

/** The CI check a result came from (triage findings' `caughtBy`): null fields where unknown. */
export interface CaughtBy {
  readonly provider: CiProvider | null;
  readonly workflow: string | null;
  readonly job: string | null;
  readonly shard: CiShard | null;
  readonly runUrl: string | null;
}

export type Env = Readonly<Record<string, string | undefined>>;

/** The providers flakeguard reads, in the order it tries them (docs/run-record.md "ci" has one row each). */
export const CI_PROVIDERS: readonly CiProvider[] = PROVIDERS.map((p) => p.provider);

/** An environment in which no provider is detected: each provider's marker set to '' (for tests, and a child that must not look like CI). */
export const NO_CI_ENV: Readonly<Record<string, string>> = Object.fromEntries(PROVIDERS.map((p) => [p.marker, '']));

/** The folders CI runners check a repository out to, every provider's (core/triage/path-mapping.ts). */
export const CI_CHECKOUT_PREFIXES: readonly RegExp[] = PROVIDERS.flatMap((p) => p.checkouts ?? []);

/**
 * The branch and job a record written before `ci` is stored under: the first variable of the
 * providers' guesses that is set, in the rows' order, whether or not its provider is detected.
 */
export function guessCiRun(env: Env): { readonly branch: string | null; readonly job: string | null } {
  const get = reader(env);
  const first = (values: (string | null)[]): string | null => values.find((v) => v !== null) ?? null;
  return {
    branch: first(PROVIDERS.flatMap((p) => (p.guess?.branch ?? []).map(get))),
    job: first(PROVIDERS.map((p) => p.guess?.job(get) ?? null)),
  };
}

const reader =
  (env: Env): Get =>
  (name) => {
    const value = env[name]?.trim();
    return value ? value : null;
  };

/** The run's CI context, or null outside a known CI. Vitest's --shard, when given, is the shard. */
export function readCiContext(env: Env, vitestShard: CiShard | null): CiContext | null {
  const get = reader(env);
  const found = PROVIDERS.find((p) => {
    const marker = get(p.marker);
    return marker !== null && p.detect(marker);
  });
  if (found === undefined) return null;
  const { parallel: providerShard, ...fields } = found.map(get);
  return { provider: found.provider, ...fields, shard: vitestShard ?? providerShard };
}

/** The provider's own name, as people write it ("GitHub Actions"). */
export function providerName(provider: CiProvider): string {
  return PROVIDERS.find((p) => p.provider === provider)?.name ?? provider;
}

/** The history store's job label: `<run id>-<attempt>/<job>` (the ingest-time guess's format), or null. */
export function ciJobLabel(ci: CiContext): string | null {
  if (ci.runId === null && ci.job === null) return null;
  const run = ci.runId === null ? '' : `${ci.runId}${ci.attempt === null ? '' : `-${ci.attempt}`}`;
  return ci.job === null ? run : `${run}/${ci.job}`;
}
