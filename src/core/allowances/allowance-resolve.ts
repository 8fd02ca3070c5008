/**
 * From allowances and the tests that exist now to what applies and what to tell people: the
 * notices (an allowance followed a renamed or moved test) and the warnings (orphans, expired,
 * ambiguous, invalid entries). Shared by the reporter seam and `flakeguard allowances`.
 */

import { escapeTerminal } from '../untrusted-text.js';
import { type Allowance, type AllowanceProblem, formatWhere, isExpired } from './allowance.js';
import type { Lineage } from './allowance-lineage.js';
import {
  type AllowanceMatch,
  type MatchKind,
  type MatchTest,
  matchAllowances,
  type WorktreeChanges,
} from './allowance-match.js';
import { quoteName } from './allowance-text.js';

export interface UniverseTest extends MatchTest {
  /** False for a test read from source only (its file is not part of this run). */
  readonly inRun: boolean;
  readonly line: number | null;
}

export interface Resolution {
  readonly allowance: Allowance;
  readonly match: AllowanceMatch;
  /** The test it applies to (null when orphan or ambiguous). */
  readonly test: UniverseTest | null;
  readonly kind: MatchKind | null;
  readonly expired: boolean;
  /** Its lineage at HEAD, when it was traced. */
  readonly lineage: Lineage | null;
}

export interface ResolveInput {
  readonly allowances: readonly Allowance[];
  readonly tests: readonly UniverseTest[];
  readonly renames: ReadonlyMap<string, string>;
  /** YYYY-MM-DD */
  readonly today: string;
  readonly lineage?: ReadonlyMap<string, Lineage>;
  readonly worktree?: WorktreeChanges;
}

export function resolveAllowances({
  allowances,
  tests,
  renames,
  today,
  lineage,
  worktree,
}: ResolveInput): Resolution[] {
  const matches = matchAllowances({
    allowances,
    tests,
    renames,
    ...(lineage ? { lineage } : {}),
    ...(worktree ? { worktree } : {}),
  });
  return allowances.map((allowance, i) => {
    const match = matches[i] as AllowanceMatch;
    const test = 'test' in match ? (tests[match.test] ?? null) : null;
    const kind = 'test' in match ? match.kind : null;
    return {
      allowance,
      match,
      test,
      kind,
      expired: isExpired(allowance, today),
      lineage: lineage?.get(allowance.id) ?? null,
    };
  });
}

const q = quoteName;

/** The notice for an allowance that applies through anything but an exact match, else null. */
export function formatFollowNotice(r: Resolution): string {
  const { allowance: a, test } = r;
  if (!test || r.kind === null || r.kind === 'exact') return '';
  const [from, to] = [escapeTerminal(a.file), escapeTerminal(test.file)];
  const traced =
    r.match.kind !== 'ambiguous' && r.match.kind !== 'orphan' && r.match.via === 'lineage'
      ? ' (traced through git history)'
      : '';
  const tail = `${traced}; run flakeguard allowances migrate to record the new name`;
  switch (r.kind) {
    case 'renamed':
      return `allowance ${a.id} follows renamed test: ${q(a.fullName)} -> ${q(test.fullName)}${tail}`;
    case 'moved':
      return `allowance ${a.id} follows moved test ${q(a.fullName)}: ${from} -> ${to}${tail}`;
    case 'moved-renamed':
      return `allowance ${a.id} follows moved and renamed test: ${q(a.fullName)} in ${from} -> ${q(test.fullName)} in ${to}${tail}`;
    case 'git-renamed':
      return `allowance ${a.id} follows test ${q(a.fullName)} into the file git renamed: ${from} -> ${to}${tail}`;
    default: {
      const never: never = r.kind;
      return never;
    }
  }
}

/** Why the allowance does not apply (orphan, ambiguous, expired), or '' when it applies. */
export function formatResolutionWarning(r: Resolution, tests: readonly UniverseTest[]): string {
  const a = r.allowance;
  const at = formatWhere(a);
  if (r.match.kind === 'orphan') {
    const how =
      r.match.why === undefined ? 'by name, body or git rename' : `its lineage: ${escapeTerminal(r.match.why)}`;
    return `${at}: allowance ${a.id} is an orphan: no test matches ${q(a.fullName)} in ${escapeTerminal(a.file)} (${how}); remove it with flakeguard allowances prune, or fix its test and file`;
  }
  if (r.match.kind === 'ambiguous') {
    const names = r.match.candidates
      .map((i) => tests[i])
      .filter((t) => t !== undefined)
      .map((t) => `${q(t.fullName)} in ${escapeTerminal(t.file)}`);
    const why = escapeTerminal(r.match.why);
    return `${at}: allowance ${a.id} for ${q(a.fullName)} is ambiguous (${names.length > 0 ? `${why}: ${names.join(', ')}` : why}) and applies to none; set its test and file to the one it is for`;
  }
  if (r.expired) {
    return `${at}: allowance ${a.id} for ${q(a.fullName)} expired on ${a.expires ?? ''} and no longer applies; set a later expires date or remove it`;
  }
  return '';
}

/**
 * Said when an allowance records a commit that cannot be followed (shallow clone, rewritten history)
 * and did not match by name: it was matched by name and body instead. '' otherwise.
 */
export function formatLineageNote(r: Resolution): string {
  if (r.lineage?.kind !== 'unavailable' || r.allowance.commit === null || r.kind === 'exact') return '';
  return `allowance ${r.allowance.id}: no lineage to follow (${r.lineage.why}); matched by name and body instead`;
}

export function formatProblem(p: AllowanceProblem): string {
  return `${p.where}: ${escapeTerminal(p.message)}`;
}
