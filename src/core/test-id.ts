/**
 * One identity for a test everywhere in flakeguard: its file (relative to the project root, with
 * `/`) and its full name (titles joined with ' > ', as Vitest's `TestCase.fullName`). Vitest's own
 * ids are order-based and change when a test is inserted, so they are never stored.
 */
export interface TestId {
  readonly file: string;
  readonly name: string;
}

export const TEST_NAME_SEPARATOR = ' > ';

/** A file name holds no NUL byte and neither does a test name, so the key is unambiguous. */
const KEY_SEPARATOR = '::';

/** The key of a test in maps and sets. `file` may be missing in a triage input (written `?`). */
export function testKey(file: string | null | undefined, name: string | null | undefined): string {
  return `${file ?? '?'}${KEY_SEPARATOR}${name ?? ''}`;
}

export function testIdKey(id: TestId): string {
  return testKey(id.file, id.name);
}
