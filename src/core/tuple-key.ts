/**
 * The key of a map or set entry that is not a test's identity (a spec, a try of a worker, a
 * lineage request, a CI job, a matching row): the parts as a JSON array, so no part can run into
 * the next. A test's identity has its own key, `testKey` in test-id.ts. Each caller names its key
 * in a function of its own (`specKey`, `tryKey`, ...).
 */
export function tupleKey(parts: readonly (string | number | boolean | null | readonly number[])[]): string {
  return JSON.stringify(parts);
}

/**
 * The key of a spec: a test file in one Vitest project (not a test's identity: a file holds many
 * tests). `project` as the caller knows it: the project's name ('' unnamed), or null where it is
 * not known yet (the first project that includes the file).
 */
export function specKey(file: string, project: string | null): string {
  return tupleKey([file, project]);
}
