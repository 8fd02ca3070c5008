/**
 * One walker per allowance: it follows its test from the commit the allowance records through the
 * commits that touch the test's file (renames followed), reading the file at each of them
 * (core/allowances/allowance-lineage.ts decides which test is the same one). All walkers advance
 * together, in rounds: each round reads every file version they still need with one
 * `git cat-file --batch`.
 */
import {
  type Carry,
  carryAcrossFiles,
  carryInFile,
  describeLoss,
  type Lineage,
  type LineageState,
  type VersionTest,
} from '../../core/allowances/allowance-lineage.js';
import { sourceUniverseTest } from '../../core/allowances/allowance-universe.js';
import { extractTests } from '../../core/source/test-source.js';
import { blobKey, type FileChange, type HistoryCommit, readBlobs } from '../git/git-history.js';

export interface Walker {
  readonly id: string;
  readonly commits: readonly HistoryCommit[];
  pos: number;
  state: LineageState;
  steps: number;
  result: Lineage | null;
}

/** A file at a commit. */
type Place = { commit: string; file: string };
/** The tests of a file version, or null when it does not parse. */
type Parse = (file: string, text: string) => VersionTest[] | null;
/** The tests of a file at a commit: undefined when its contents are not read yet. */
type VersionAt = (commit: string, file: string) => VersionTest[] | null | undefined;

const SOURCE_RE = /\.[cm]?[jt]sx?$/;

/** The change of `commit` to the file `file`, if any (a copy leaves the original where it was). */
function touching(commit: HistoryCommit, file: string): FileChange | undefined {
  return commit.changes.find((c) => (c.status === 'R' ? c.from === file : c.status !== 'C' && c.path === file));
}

/** The (commit, path) pairs the walker will read if its test stays in its file. */
function chainPairs(w: Walker): Place[] {
  const pairs: Place[] = [];
  let file = w.state.file;
  for (let i = w.pos; i < w.commits.length; i++) {
    const c = w.commits[i] as HistoryCommit;
    const change = touching(c, file);
    if (!change) continue;
    if (change.status === 'D') break;
    file = change.path;
    pairs.push({ commit: c.sha, file });
  }
  return pairs;
}

function othersAt(c: HistoryCommit, except: string | null): Place[] {
  return c.changes
    .filter((x) => x.status !== 'D' && x.path !== except && SOURCE_RE.test(x.path))
    .map((x) => ({ commit: c.sha, file: x.path }));
}

/**
 * A test gone from its file at `c`, looked for in the other source files `c` touched (a move).
 * Their contents are read first: `missing` names those not read yet.
 */
function lookInOtherFiles(
  state: LineageState,
  c: HistoryCommit,
  file: string | null,
  blobs: ReadonlyMap<string, string | null>,
  versionAt: VersionAt,
): { readonly missing: Place[]; readonly carry: Carry } {
  const others = othersAt(c, file);
  const missing = others.filter((o) => !blobs.has(blobKey(o.commit, o.file)));
  if (missing.length > 0) return { missing, carry: { kind: 'gone' } };
  const versions = new Map<string, readonly VersionTest[]>();
  for (const o of others) versions.set(o.file, versionAt(o.commit, o.file) ?? []);
  return { missing: [], carry: carryAcrossFiles(state, versions) };
}

/** Where the walk ends when the test is lost or cannot be told apart at `c`. */
function endLineage(state: LineageState, carry: Exclude<Carry, { kind: 'kept' }>, c: HistoryCommit): Lineage {
  return carry.kind === 'gone'
    ? { kind: 'ended', why: describeLoss(state, `in commit ${c.sha.slice(0, 10)}`) }
    : { kind: 'ambiguous', why: `${carry.why}, in commit ${c.sha.slice(0, 10)}` };
}

/** Walks until done (result set) or until it needs contents it does not have (returned). */
function advance(w: Walker, blobs: ReadonlyMap<string, string | null>, parse: Parse): Place[] {
  const versionAt: VersionAt = (commit, file) => {
    const text = blobs.get(blobKey(commit, file));
    return text === undefined ? undefined : text === null ? [] : parse(file, text);
  };
  for (; w.pos < w.commits.length; w.pos++) {
    const c = w.commits[w.pos] as HistoryCommit;
    const change = touching(c, w.state.file);
    if (!change) continue;
    const file = change.status === 'D' ? null : change.path;
    const tests = file === null ? [] : versionAt(c.sha, file);
    if (tests === undefined) return [{ commit: c.sha, file: file as string }];
    // A version that does not parse says nothing: keep the state, follow the path.
    if (tests === null) {
      w.state = { ...w.state, file: file ?? w.state.file };
      continue;
    }
    let carry = file === null ? ({ kind: 'gone' } as const) : carryInFile(w.state, file, tests);
    if (carry.kind === 'gone') {
      const elsewhere = lookInOtherFiles(w.state, c, file, blobs, versionAt);
      if (elsewhere.missing.length > 0) return elsewhere.missing;
      carry = elsewhere.carry;
      if (carry.kind === 'kept') {
        w.state = carry.state;
        w.steps++;
        w.pos++;
        return chainPairs(w).filter((p) => !blobs.has(blobKey(p.commit, p.file)));
      }
    }
    if (carry.kind !== 'kept') {
      w.result = endLineage(w.state, carry, c);
      return [];
    }
    const { fullName: name, file: at, fingerprint } = carry.state;
    if (name !== w.state.fullName || at !== w.state.file || fingerprint !== w.state.fingerprint) w.steps++;
    w.state = carry.state;
  }
  w.result = { kind: 'traced', state: w.state, steps: w.steps };
  return [];
}

/** Test parsing, once per distinct (file, text): the same version is met by many walkers. */
function makeParse(): Parse {
  const parsed = new Map<string, VersionTest[] | null>();
  return (file, text) => {
    const key = `${file}\0${text}`;
    if (!parsed.has(key)) {
      try {
        parsed.set(key, extractTests(text, file).map(sourceUniverseTest));
      } catch {
        parsed.set(key, null);
      }
    }
    return parsed.get(key) ?? null;
  };
}

/** Advances every walker to its result, reading the file versions they need in rounds. */
export async function walkAll(root: string, walkers: readonly Walker[]): Promise<void> {
  const parse = makeParse();
  const blobs = new Map<string, string | null>();
  let needs = walkers.flatMap(chainPairs);
  for (let open = walkers; open.length > 0; ) {
    const fresh = [
      ...new Map(
        needs.filter((p) => !blobs.has(blobKey(p.commit, p.file))).map((p) => [blobKey(p.commit, p.file), p]),
      ).values(),
    ];
    for (const [k, v] of await readBlobs(root, fresh)) blobs.set(k, v);
    for (const p of fresh) if (!blobs.has(blobKey(p.commit, p.file))) blobs.set(blobKey(p.commit, p.file), null);
    needs = open.flatMap((w) => advance(w, blobs, parse));
    open = open.filter((w) => w.result === null);
  }
}
