/**
 * One orchestration for the reporter, the gate and `flakeguard allowances`: which allowance applies
 * to which test, what to say about allowances that followed their test, and what is wrong in the
 * store. Reads only: concurrent shards never write allowance files (the lineage cache aside).
 *
 * Cost: without allowances, one directory listing. When every allowance matches a reported test by
 * file and name, no test source is read and git is not asked. Otherwise every test file is read and
 * parsed once (about 0.4 s for 10,000 tests, bench/allowances.mjs), lineage is traced through git
 * for the allowances that did not match by name (cached by commit, bench/allowances-lineage.mjs),
 * and git's renames are asked only when an allowance without lineage still has no test.
 */

import type { Allowance } from '../../core/allowances/allowance.js';
import type { Lineage } from '../../core/allowances/allowance-lineage.js';
import { allowanceKey, type MatchKind, type WorktreeChanges } from '../../core/allowances/allowance-match.js';
import {
  formatFollowNotice,
  formatLineageNote,
  formatProblem,
  formatResolutionWarning,
  type Resolution,
  type ResolveInput,
  resolveAllowances,
  type UniverseTest,
} from '../../core/allowances/allowance-resolve.js';
import { buildUniverse, type RunTest } from '../../core/allowances/allowance-universe.js';
import type { Config } from '../../core/config.js';
import type { PlatformValue } from '../../core/platform-value.js';
import { type RunQuarantine, toRunQuarantine } from '../../core/quarantine/run-quarantine.js';
import type { SourceTest } from '../../core/source/test-source.js';
import { cacheFile, LINEAGE_CACHE, resolveProjectPlaces } from '../places/project-places.js';
import { type AllowanceStore, loadAllowanceStore } from './allowance-store.js';

export interface AllowanceResolutionInput {
  /** Absolute project root; test files are relative to it with `/`. */
  readonly root: string;
  readonly config: Config;
  /** The tests a run reported, or null to take every test from source (the CLI). */
  readonly tests: readonly RunTest[] | null;
  /** YYYY-MM-DD, the day expiry is judged against. */
  readonly today: string;
  /** The project's test files (relative, `/`) when the caller has them (the reporter's running Vitest). */
  readonly testFiles?: () => Promise<readonly string[]>;
}

export interface AllowanceResolution {
  readonly store: AllowanceStore;
  readonly sources: ReadonlyMap<string, readonly SourceTest[]>;
  /** Test files an allowance or the run names that do not parse (file:line:column). */
  readonly sourceProblems: readonly string[];
  readonly universe: readonly UniverseTest[];
  readonly resolutions: readonly Resolution[];
  /** Allowances whose recorded commit could not be followed (matched by name and body instead). */
  readonly lineageNotes: readonly string[];
}

/**
 * The test files of the project: the one place that decides which files are tests. The project's
 * Vitest says (its include, exclude, projects; io/vitest/list-test-files.ts, the gate's selection
 * asks the same), or the running Vitest when the caller passes its answer.
 */
async function listTestFiles(root: string, testFiles?: () => Promise<readonly string[]>): Promise<readonly string[]> {
  if (testFiles) return testFiles();
  const { listTestFilePaths } = await import('../vitest/list-test-files.js');
  return listTestFilePaths(root);
}

function worktreeOf(changes: readonly { status: string; path: string; from: string | null }[]): WorktreeChanges {
  const renames = new Map(
    changes.filter((c) => c.status === 'R' && c.from !== null).map((c) => [c.from as string, c.path]),
  );
  const deleted = new Set(changes.filter((c) => c.status === 'D').map((c) => c.path));
  const changed = new Set(changes.filter((c) => c.status !== 'D').map((c) => c.path));
  return { renames, deleted, changed };
}

/** The lineage through git of the allowances that did not match their test by name (cached by commit). */
async function traceFollowed(
  root: string,
  config: Config,
  followed: readonly Allowance[],
): Promise<{ lineage: Map<string, Lineage>; worktree: WorktreeChanges }> {
  const { traceLineage } = await import('./allowance-lineage.js');
  const places = resolveProjectPlaces(root, config);
  const trace = await traceLineage(
    root,
    cacheFile(places, LINEAGE_CACHE),
    followed.map((a) => ({
      id: a.id,
      commit: a.commit,
      state: { file: a.file, fullName: a.fullName, fingerprint: a.fingerprint },
    })),
  );
  return { lineage: new Map(trace.byId), worktree: worktreeOf(trace.worktree) };
}

/** Orphans without lineage, matched again when git renamed their file since (else as they were). */
async function followGitRenames(
  root: string,
  base: Omit<ResolveInput, 'renames'>,
  resolutions: Resolution[],
): Promise<Resolution[]> {
  const lost = resolutions.filter(
    (r) => r.match.kind === 'orphan' && (r.lineage?.kind ?? 'unavailable') === 'unavailable',
  );
  if (lost.length === 0) return resolutions;
  const { gitRenamesSince } = await import('../git/git-renames.js');
  const renames = await gitRenamesSince(root, [...new Set(lost.map((r) => r.allowance.at.storeFile))]);
  if (!lost.some((r) => renames.has(r.allowance.file))) return resolutions;
  return resolveAllowances({ ...base, renames });
}

export async function resolveProjectAllowances(input: AllowanceResolutionInput): Promise<AllowanceResolution> {
  const { root, config, tests, today } = input;
  const store = loadAllowanceStore(root, config.allowances);
  const runTests = tests ?? [];
  const bare: UniverseTest[] = runTests.map((t) => ({
    file: t.file,
    fullName: t.fullName,
    fingerprint: null,
    inRun: true,
    line: t.line,
  }));
  const quick = { store, sources: new Map(), sourceProblems: [], universe: bare, lineageNotes: [] };
  if (store.allowances.length === 0) return { ...quick, resolutions: [] };
  // Fast path: every allowance names a reported test exactly; no source needs reading.
  if (tests !== null) {
    const resolutions = resolveAllowances({ allowances: store.allowances, tests: bare, renames: new Map(), today });
    if (resolutions.every((r) => r.kind === 'exact')) return { ...quick, resolutions };
  }
  // Loaded only here: the parser costs ~200 ms of CPU and ~20 MiB, paid only when an allowance
  // does not match its test by file and name.
  const { readSourceTests } = await import('../source/source-files.js');
  const named = new Set([...runTests.map((t) => t.file), ...store.allowances.map((a) => a.file)]);
  const read = readSourceTests(root, new Set([...(await listTestFiles(root, input.testFiles)), ...named]));
  // Only files this run or an allowance names: a broken fixture elsewhere is not our business.
  const sourceProblems = read.problems.filter((p) => named.has(p.file)).map((p) => p.message);
  const universe = buildUniverse(runTests, read.tests);
  let resolutions = resolveAllowances({ allowances: store.allowances, tests: universe, renames: new Map(), today });
  const followed = resolutions.filter((r) => r.kind !== 'exact').map((r) => r.allowance);
  let lineage = new Map<string, Lineage>();
  let worktree: WorktreeChanges | undefined;
  if (followed.length > 0) {
    ({ lineage, worktree } = await traceFollowed(root, config, followed));
    resolutions = resolveAllowances({
      allowances: store.allowances,
      tests: universe,
      renames: new Map(),
      today,
      lineage,
      worktree,
    });
  }
  const base = { allowances: store.allowances, tests: universe, today, lineage, ...(worktree ? { worktree } : {}) };
  resolutions = await followGitRenames(root, base, resolutions);
  const lineageNotes = resolutions.map(formatLineageNote).filter((n) => n !== '');
  return { store, sources: read.tests, sourceProblems, universe, resolutions, lineageNotes };
}

interface AppliedAllowance {
  readonly id: string;
  readonly budget: PlatformValue<number>;
  readonly match: MatchKind;
  readonly storedName: string;
  readonly storedFile: string;
}

export interface AllowancesForRunInput {
  readonly root: string;
  readonly config: Config;
  readonly tests: readonly RunTest[];
  readonly platform: string;
  readonly today: string;
  /** See AllowanceResolutionInput.testFiles. */
  readonly testFiles?: () => Promise<readonly string[]>;
}

export interface AllowancesForRun {
  /** By allowanceKey (file and full name: an allowance applies in every project). */
  readonly applied: Map<string, AppliedAllowance>;
  /** The quarantine over each reported test (applying or expired), by the same key. */
  readonly quarantine: Map<string, RunQuarantine>;
  readonly notices: string[];
  readonly warnings: string[];
}

/** What the reporter and the gate ask once per run: the allowance of each reported test. */
export async function loadAllowancesForRun(input: AllowancesForRunInput): Promise<AllowancesForRun> {
  const resolved = await resolveProjectAllowances({
    root: input.root,
    config: input.config,
    tests: input.tests,
    today: input.today,
    ...(input.testFiles ? { testFiles: input.testFiles } : {}),
  });
  const warnings = [...resolved.store.problems.map(formatProblem), ...resolved.sourceProblems];
  const applied = new Map<string, AppliedAllowance>();
  const quarantine = new Map<string, RunQuarantine>();
  const notices: string[] = [...resolved.lineageNotes];
  for (const r of resolved.resolutions) {
    const warning = formatResolutionWarning(r, resolved.universe);
    if (warning) warnings.push(warning);
    if (!r.test || !r.kind || !r.test.inRun) continue;
    const a = r.allowance;
    const key = allowanceKey(r.test);
    if (a.quarantine !== null) quarantine.set(key, toRunQuarantine(a.id, a.quarantine, input.today));
    if (a.budget === null || r.expired) continue;
    applied.set(key, { id: a.id, budget: a.budget, match: r.kind, storedName: a.fullName, storedFile: a.file });
    const notice = formatFollowNotice(r);
    if (notice) notices.push(notice);
  }
  return { applied, quarantine, notices, warnings };
}
