/**
 * One identity for a test everywhere in flakeguard: the Vitest project it ran in, its file
 * (relative to the project root, with `/`) and its full name (titles joined with ' > ', as Vitest's
 * `TestCase.fullName`). Two Vitest projects can hold the same file and full name: the project tells them apart. Vitest's own ids are
 * order-based and change when a test is inserted, so they are never stored.
 */
export interface TestId {
  /**
   * The Vitest project ('' for an unnamed one). Absent where the source does not say (a test read
   * from its file, a JUnit report, a log): such an identity keys as project ''.
   */
  readonly project?: string;
  readonly file: string;
  readonly fullName: string;
}

export const TEST_NAME_SEPARATOR = ' > ';

/** What a key is made of: an identity, or a triage input's test whose file or name a log may leave out (null). */
export interface TestKeyParts {
  readonly project?: string | null | undefined;
  readonly file: string | null;
  readonly fullName: string | null;
}

/**
 * The one key of a test in maps and sets: project, file and full name, as a JSON array so that no
 * title or path can make two identities share a key. Never stored: the run record's `key` field
 * keeps 0.1.0's `<file>::<full name>` for readers of the JSON (core/budget/run-record-build.ts), and
 * flakeguard reads the record's project, file and name instead.
 */
export function testKey(id: TestKeyParts): string {
  const parts = [id.project ?? '', id.file, id.fullName ?? ''];
  return JSON.stringify(parts);
}

/** A shape with its `fullName` under the field name 0.1.0's JSON or YAML gives it (`name`, `test`). */
export type FullNameAs<T, K extends string> = { [P in keyof T as P extends 'fullName' ? K : P]: T[P] };

const withField = (o: object, from: string, to: string): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k === from ? to : k, v]));

/**
 * The one translation of the full name at the JSON edge: `fullName` written as `as`, every other
 * field kept where it was (the JSON's key order does not change). Inside flakeguard the field is
 * `fullName`; files and JSON output keep 0.1.0's names (docs/run-record.md "Field names").
 */
export function fullNameAs<T extends { readonly fullName: unknown }, K extends string>(t: T, as: K): FullNameAs<T, K> {
  return withField(t, 'fullName', as) as FullNameAs<T, K>;
}

/** The way back in: a JSON object's `from` field (0.1.0's `name` or `test`) read as `fullName`, the rest as it is. */
export function fullNameFrom(o: object, from: 'name' | 'test'): Record<string, unknown> {
  return withField(o, from, 'fullName');
}
