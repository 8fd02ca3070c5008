/**
 * Which test each allowance applies to, in this order (docs/allowances.md):
 *   1. exact          same file and full name
 *   2. renamed        same fingerprint in the same file (title or describe renamed)
 *   3. moved          same fingerprint in another file, same name (moved-renamed when the name changed)
 *   4. git-renamed    same full name in the file git says the stored file was renamed to
 * One allowance never applies to two tests and one test never gets two allowances. A copy of a test
 * does not inherit: the original keeps it by exact name, and when neither has the stored name two
 * tests carry the fingerprint, which is ambiguous. Ambiguous means: say so and apply none.
 */
import { testKey } from '../test-id.js';

export type MatchKind = 'exact' | 'renamed' | 'moved' | 'moved-renamed' | 'git-renamed';

export interface MatchAllowance {
  readonly id: string;
  readonly test: string;
  readonly file: string;
  readonly fingerprint: string | null;
}

export interface MatchTest {
  readonly file: string;
  readonly fullName: string;
  /** null when the test's source could not be read. */
  readonly fingerprint: string | null;
  /**
   * For a `.each` test read from source: matches the row names Vitest gives (`adds 1`), so an
   * allowance stored under a row name is an exact match. Absent for tests Vitest reported.
   */
  readonly namePattern?: RegExp;
}

export type AllowanceMatch =
  | { readonly kind: MatchKind; readonly id: string; readonly test: number }
  | { readonly kind: 'ambiguous'; readonly id: string; readonly candidates: readonly number[]; readonly why: string }
  | { readonly kind: 'orphan'; readonly id: string };

export interface MatchInput {
  readonly allowances: readonly MatchAllowance[];
  readonly tests: readonly MatchTest[];
  /** Old path -> new path, from git's rename detection. */
  readonly renames: ReadonlyMap<string, string>;
}

function group<T>(items: readonly T[], keyOf: (item: T, index: number) => string | null): Map<string, number[]> {
  const map = new Map<string, number[]>();
  items.forEach((item, index) => {
    const key = keyOf(item, index);
    if (key === null) return;
    const list = map.get(key);
    if (list) list.push(index);
    else map.set(key, [index]);
  });
  return map;
}

const nameKey = testKey;

/** One match per allowance, in the allowances' order. */
export function matchAllowances({ allowances, tests, renames }: MatchInput): AllowanceMatch[] {
  const results = new Map<string, AllowanceMatch>();
  const byId = new Map(allowances.map((a) => [a.id, a]));
  const claimed = new Set<number>();
  const byName = group(tests, (t) => nameKey(t.file, t.fullName));
  const patterned = tests.map((t, i) => [t, i] as const).filter(([t]) => t.namePattern !== undefined);
  const byPrint = group(tests, (t) => t.fingerprint);

  const exactCandidates = (a: MatchAllowance, file: string): number[] => byName.get(nameKey(file, a.test)) ?? [];
  const patternCandidates = (a: MatchAllowance, file: string): number[] =>
    patterned.filter(([t]) => t.file === file && t.namePattern?.test(a.test)).map(([, i]) => i);

  /**
   * A `.each` template read from source stands for all its rows: allowances for different rows
   * share it; two for the same row are ambiguous.
   */
  const settleRows = (file: (a: MatchAllowance) => string | undefined, kind: MatchKind): void => {
    const rows = new Map<string, string[]>();
    const wants = new Map<string, number[]>();
    for (const a of open()) {
      const f = file(a);
      if (f === undefined) continue;
      const candidates = patternCandidates(a, f);
      if (candidates.length === 0) continue;
      wants.set(a.id, candidates);
      const row = `${candidates.join(',')}\u0000${a.test}`;
      rows.set(row, [...(rows.get(row) ?? []), a.id]);
    }
    for (const [id, candidates] of wants) {
      const a = byId.get(id) as MatchAllowance;
      const rivals = rows.get(`${candidates.join(',')}\u0000${a.test}`) ?? [];
      if (candidates.length > 1) results.set(id, { kind: 'ambiguous', id, candidates, why: `${candidates.length} .each templates in the file fit this name` });
      else if (rivals.length > 1) results.set(id, { kind: 'ambiguous', id, candidates, why: `allowances ${rivals.join(', ')} all point to this row` });
      else results.set(id, { kind, id, test: candidates[0] as number });
    }
    for (const r of results.values()) if (r.kind !== 'ambiguous' && r.kind !== 'orphan') claimed.add(r.test);
  };

  /** Gives each test wanted by exactly one open allowance to it; marks contested ones ambiguous. */
  const settle = (wants: Map<string, number[]>, kindOf: (a: MatchAllowance, test: number) => MatchKind, why: string): void => {
    const wantedBy = new Map<number, string[]>();
    for (const [id, candidates] of wants) {
      if (candidates.length !== 1) continue;
      const t = candidates[0] as number;
      wantedBy.set(t, [...(wantedBy.get(t) ?? []), id]);
    }
    for (const [id, candidates] of wants) {
      const a = byId.get(id) as MatchAllowance;
      if (candidates.length > 1) {
        results.set(id, { kind: 'ambiguous', id, candidates, why: `${candidates.length} tests ${why}` });
        continue;
      }
      const t = candidates[0] as number;
      const rivals = wantedBy.get(t) ?? [];
      if (rivals.length > 1) {
        results.set(id, { kind: 'ambiguous', id, candidates, why: `allowances ${rivals.join(', ')} all point to this test` });
        continue;
      }
      results.set(id, { kind: kindOf(a, t), id, test: t });
    }
    for (const r of results.values()) if (r.kind !== 'ambiguous' && r.kind !== 'orphan') claimed.add(r.test);
  };

  const open = (): MatchAllowance[] => allowances.filter((a) => !results.has(a.id));
  const stage = (
    candidatesOf: (a: MatchAllowance) => number[] | null,
    kindOf: (a: MatchAllowance, test: number) => MatchKind,
    why: string,
  ): void => {
    const wants = new Map<string, number[]>();
    for (const a of open()) {
      const all = candidatesOf(a);
      if (all === null || all.length === 0) continue;
      // A test another allowance already holds is no candidate; when it was the only one, this
      // allowance has no match at this stage (it is not ambiguous, the test is taken).
      const free = all.filter((t) => !claimed.has(t));
      if (free.length === 0) continue;
      wants.set(a.id, all.length > 1 ? all : free);
    }
    settle(wants, kindOf, why);
  };

  stage((a) => exactCandidates(a, a.file), () => 'exact', 'in the file have this name');
  settleRows((a) => a.file, 'exact');
  stage(
    (a) => (a.fingerprint === null ? null : (byPrint.get(a.fingerprint) ?? []).filter((t) => tests[t]?.file === a.file)),
    () => 'renamed',
    'in the same file have this body (a copy?)',
  );
  stage(
    (a) => {
      if (a.fingerprint === null) return null;
      const all = byPrint.get(a.fingerprint) ?? [];
      return all.some((t) => tests[t]?.file === a.file) ? null : all;
    },
    (a, t) => (tests[t]?.fullName === a.test ? 'moved' : 'moved-renamed'),
    'in other files have this body (a copy?)',
  );
  stage(
    (a) => {
      const target = renames.get(a.file);
      return target === undefined ? null : exactCandidates(a, target);
    },
    () => 'git-renamed',
    'in the renamed file have this name',
  );
  settleRows((a) => renames.get(a.file), 'git-renamed');
  return allowances.map((a) => results.get(a.id) ?? { kind: 'orphan', id: a.id });
}

/**
 * A regular expression for the row names of a `.each`/`.for` title template: printf placeholders
 * (%s %d %i %f %j %o %O %c %#) and `$name` interpolations match any text; %% is a percent sign.
 */
export function eachNamePattern(template: string): RegExp {
  let source = '';
  const re = /%%|%[sdifjoOc#$]|\$[A-Za-z_$][\w$.]*/g;
  let last = 0;
  for (const m of template.matchAll(re)) {
    source += escapeRegExp(template.slice(last, m.index)) + (m[0] === '%%' ? '%' : '.*?');
    last = (m.index ?? 0) + m[0].length;
  }
  source += escapeRegExp(template.slice(last));
  return new RegExp(`^${source}$`, 's');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
