/**
 * What the reporter asks once per run: which allowance applies to which reported test, what to
 * say about allowances that followed a renamed or moved test, and what is wrong in the store. Reads
 * only: concurrent shards never write allowance files.
 *
 * Cost: without allowances, one directory listing. When every allowance matches its test by file
 * and name, no test source is read. Otherwise every test file is read and parsed once (about
 * 0.4 s for 10,000 tests, bench/allowances.mjs), and git is asked for renames only when an
 * allowance still has no test.
 */
import type { Config } from '../../core/config.js';
import type { PlatformValue } from '../../core/platform-value.js';
import { buildUniverse, type RunTest } from '../../core/allowances/allowance-universe.js';
import { formatFollowNotice, formatProblem, formatResolutionWarning, resolveAllowances, type Resolution, type UniverseTest } from '../../core/allowances/allowance-resolve.js';
import type { MatchKind } from '../../core/allowances/allowance-match.js';
import { loadAllowanceStore } from './allowance-store.js';
import { testKey } from '../../core/test-id.js';

export interface AppliedAllowance {
  readonly id: string;
  readonly budget: PlatformValue<number>;
  readonly match: MatchKind;
  readonly storedName: string;
  readonly storedFile: string;
}

export interface AllowancesForRunInput {
  /** Absolute project root; test files are relative to it with `/`. */
  readonly root: string;
  readonly config: Config;
  readonly tests: readonly RunTest[];
  readonly platform: string;
  /** YYYY-MM-DD, the day expiry is judged against. */
  readonly today: string;
  /**
   * The project's test files (relative, `/`), asked only when an allowance does not match exactly.
   * Default: Vitest asked in a child (io/vitest/list-test-files.ts); the reporter passes the
   * running Vitest's own answer instead.
   */
  readonly testFiles?: () => Promise<readonly string[]>;
}

export interface AllowancesForRun {
  /** By testKey(file, fullName). */
  readonly applied: Map<string, AppliedAllowance>;
  readonly notices: string[];
  readonly warnings: string[];
}

function allExact(resolutions: readonly Resolution[]): boolean {
  return resolutions.every((r) => r.kind === 'exact');
}

export async function loadAllowancesForRun(input: AllowancesForRunInput): Promise<AllowancesForRun> {
  const { root, config, tests, today } = input;
  const store = loadAllowanceStore(root, config.allowances);
  const warnings = store.problems.map(formatProblem);
  const applied = new Map<string, AppliedAllowance>();
  const notices: string[] = [];
  if (store.allowances.length === 0) return { applied, notices, warnings };

  // Fast path: every allowance names a reported test exactly; no source needs reading.
  const bare: UniverseTest[] = tests.map((t) => ({ file: t.file, fullName: t.fullName, fingerprint: null, inRun: true, line: t.line }));
  let universe = bare;
  let resolutions = resolveAllowances({ allowances: store.allowances, tests: bare, renames: new Map(), today });
  if (!allExact(resolutions)) {
    // Loaded only here: the parser costs ~200 ms of CPU and ~20 MiB, paid only when an allowance
    // does not match its test by file and name.
    const { readSourceTests } = await import('./source-files.js');
    const listed = input.testFiles ? await input.testFiles() : await (await import('../vitest/list-test-files.js')).listTestFilePaths(root);
    const files = new Set([...tests.map((t) => t.file), ...listed, ...store.allowances.map((a) => a.file)]);
    const sources = readSourceTests(root, files);
    // Only files this run or an allowance names: a broken fixture elsewhere is not our business.
    const named = new Set([...tests.map((t) => t.file), ...store.allowances.map((a) => a.file)]);
    warnings.push(...sources.problems.filter((p) => named.has(p.file)).map((p) => p.message));
    universe = buildUniverse(tests, sources.tests);
    resolutions = resolveAllowances({ allowances: store.allowances, tests: universe, renames: new Map(), today });
    const lost = resolutions.filter((r) => r.match.kind === 'orphan');
    if (lost.length > 0) {
      const storeFiles = [...new Set(lost.map((r) => r.allowance.at.storeFile))];
      const { gitRenamesSince } = await import('../git/git-renames.js');
      const renames = await gitRenamesSince(root, storeFiles);
      if (lost.some((r) => renames.has(r.allowance.file))) {
        resolutions = resolveAllowances({ allowances: store.allowances, tests: universe, renames, today });
      }
    }
  }

  for (const r of resolutions) {
    const warning = formatResolutionWarning(r, universe);
    if (warning) warnings.push(warning);
    if (!r.test || !r.kind || r.expired || !r.test.inRun) continue;
    applied.set(testKey(r.test.file, r.test.fullName), {
      id: r.allowance.id,
      budget: r.allowance.budget,
      match: r.kind,
      storedName: r.allowance.test,
      storedFile: r.allowance.file,
    });
    const notice = formatFollowNotice(r);
    if (notice) notices.push(notice);
  }
  return { applied, notices, warnings };
}
