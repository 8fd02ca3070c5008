/**
 * A test as a file names it, in no Vitest project: its file (relative to the project root, with
 * `/`) and its full name (titles joined with ' > ', as Vitest's `TestCase.fullName`). What an
 * allowance entry, a quarantine and a test read from source hold: they apply in every project.
 */
export interface TestRef {
  readonly file: string;
  readonly fullName: string;
}

/**
 * One identity for a test everywhere in flakeguard: the Vitest project it ran in and its
 * `TestRef`. Two Vitest projects can hold the same file and full name: the project tells them
 * apart. Vitest's own ids are order-based and change when a test is inserted, so they are never
 * stored.
 */
export interface TestId extends TestRef {
  /**
   * The Vitest project: its name, '' for an unnamed one, null where the source cannot say (a
   * JUnit report, a log line, a record or store written before projects were recorded). Required:
   * a test without it cannot be keyed (`testKey`).
   */
  readonly project: string | null;
}

export const TEST_NAME_SEPARATOR = ' > ';

/** What a key is made of: an identity, or a triage input's test whose file or name a log may leave out (null). */
export interface TestKeyParts {
  /** Required, as in `TestId`: null (unknown) keys apart from '' (the unnamed project). */
  readonly project: string | null;
  readonly file: string | null;
  readonly fullName: string | null;
}

/**
 * The one key of a test in maps and sets: project, file and full name, as a JSON array so that no
 * title or path can make two identities share a key. The project is part of its parameter's type,
 * so a key without it does not compile (test/core/test-id.test.ts, test/boundaries.test.ts). An
 * unknown project (null) is its own key: a reader that joins a source that cannot say with one
 * that can matches it to the one project that has the test (core/triage/triage-merge.ts); the
 * history store reads a null project as any project (io/history/test-history.ts). Never stored: the run record's `key` field
 * keeps 0.1.0's `<file>::<full name>` for readers of the JSON (core/budget/run-record-build.ts).
 */
export function testKey(id: TestKeyParts): string {
  return JSON.stringify([id.project, id.file, id.fullName ?? '']);
}

/**
 * The key of a test in every project (its `TestRef`): for what applies in every Vitest project on
 * purpose, an allowance and its quarantine (`allowanceKey`) and a test's place in its source
 * (`placeKey`). Never a key of results: those are `testKey`.
 */
export function refKey(ref: TestRef): string {
  return JSON.stringify([ref.file, ref.fullName]);
}

const withField = (o: object, from: string, to: string): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k === from ? to : k, v]));

/**
 * Every format flakeguard writes names a test's full name `fullName` (issue 37). Reading what an
 * older release wrote (a version 1 run record, a version 4 gate report, a version 1 lineage cache):
 * a JSON object's `from` field (0.1.0's `name` or `test`) read as `fullName`, every other field
 * kept where it was. The allowance YAML keeps `test:` (docs/allowances.md).
 */
export function fullNameFrom(o: object, from: 'name' | 'test'): Record<string, unknown> {
  return withField(o, from, 'fullName');
}

/**
 * How a line of output names a test's project, after its file: ` [node]`; nothing for the unnamed
 * project ('') or an unknown one (null), so a suite with one project reads as before. The caller
 * escapes it with the file.
 */
export function projectTag(project: string | null): string {
  return project === null || project === '' ? '' : ` [${project}]`;
}
