/**
 * Allowances: `allowances/<test file>.yaml`, a YAML list of entries, each a per-test duration
 * limit that replaces the configured budget for one test. Here: the allowance and its problems as
 * types, where a test's allowance file is, and the rules over parsed files (one entry per id,
 * expiry). Parsed from text in allowance-parse.ts (pure); the store in src/io reads and writes the
 * files. Format and matching: docs/allowances.md.
 */

import { hasExpired } from '../calendar.js';
import type { PlatformValue } from '../platform-value.js';
import type { TestRef } from '../test-id.js';
import type { QuarantineTerms } from './quarantine-terms.js';

/** One entry; its test (file and full name, YAML `test:`) is the one the entry named when last written. */
export interface Allowance extends TestRef {
  readonly id: string;
  readonly fingerprint: string | null;
  /**
   * The commit at which `fullName`, `file` and `fingerprint` were last known true (written by `add`
   * and `migrate`); lineage follows the test from there through git history. Null when unknown.
   */
  readonly commit: string | null;
  /** The test's own duration limit; null for an entry that only quarantines its test. */
  readonly budget: PlatformValue<number> | null;
  /** Why the test may take longer (with `budget`); '' for a quarantine-only entry. */
  readonly reason: string;
  /** The test's quarantine (docs/quarantine.md), or null. */
  readonly quarantine: QuarantineTerms | null;
  /** YYYY-MM-DD */
  readonly added: string;
  readonly expires: string | null;
  /** The allowance file that holds the entry (relative to the root) and where the entry starts. */
  readonly at: { readonly storeFile: string; readonly line: number; readonly column: number };
}

export interface AllowanceProblem {
  readonly kind: 'syntax' | 'invalid' | 'duplicate-id';
  /** file:line:column */
  readonly where: string;
  readonly message: string;
  /** The entry's id when it has one. */
  readonly id: string | null;
}

export interface ParsedAllowanceFile {
  readonly allowances: readonly Allowance[];
  readonly problems: readonly AllowanceProblem[];
}

/** `allowances/test/hub/tracker.test.ts.yaml` for `test/hub/tracker.test.ts`. */
export function allowanceFileFor(folder: string, testFile: string): string {
  return `${folder}/${testFile}.yaml`;
}

/** The test file an allowance file mirrors, or null when the path is not `<folder>/….yaml`. */
export function testFileOf(folder: string, storeFile: string): string | null {
  const prefix = `${folder}/`;
  if (!storeFile.startsWith(prefix) || !storeFile.endsWith('.yaml')) return null;
  return storeFile.slice(prefix.length, -'.yaml'.length);
}

/** A project-relative path that stays inside the project: no absolute path, no `..` step out. */
export function isInsideProject(file: string): boolean {
  if (file === '' || file.startsWith('/') || /^[a-zA-Z]:/.test(file) || file.includes('\\')) return false;
  let depth = 0;
  for (const part of file.split('/')) {
    if (part === '..') depth--;
    else if (part !== '.' && part !== '') depth++;
    if (depth < 0) return false;
  }
  return depth > 0;
}

/** The problem of an entry whose id an earlier entry (at `firstAt`) has already. */
export function duplicateIdProblem(id: string, where: string, firstAt: string): AllowanceProblem {
  return {
    kind: 'duplicate-id',
    where,
    message: `id "${id}" is already used at ${firstAt}; give this entry a new id`,
    id,
  };
}

/**
 * Keeps the first entry for each id across files (files in path order) and reports the others as
 * duplicates; a duplicated id cannot be named in notices or pruned safely.
 */
export function dedupeAllowances(files: readonly ParsedAllowanceFile[]): ParsedAllowanceFile {
  const allowances: Allowance[] = [];
  const problems: AllowanceProblem[] = [];
  const seen = new Map<string, Allowance>();
  for (const file of files) {
    problems.push(...file.problems);
    for (const a of file.allowances) {
      const first = seen.get(a.id);
      if (first) {
        const firstAt = `${first.at.storeFile}:${first.at.line}:${first.at.column}`;
        problems.push(duplicateIdProblem(a.id, `${a.at.storeFile}:${a.at.line}:${a.at.column}`, firstAt));
        continue;
      }
      seen.set(a.id, a);
      allowances.push(a);
    }
  }
  return { allowances, problems };
}

/** True when `expires` is set and `today` (YYYY-MM-DD) is after it. */
export function isExpired(allowance: Pick<Allowance, 'expires'>, today: string): boolean {
  return allowance.expires !== null && hasExpired(allowance.expires, today);
}

export function formatWhere(a: Allowance): string {
  return `${a.at.storeFile}:${a.at.line}:${a.at.column}`;
}
