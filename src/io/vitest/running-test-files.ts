/**
 * The test files of a Vitest that is already running (the reporter's): the same answer
 * list-test-files.ts gets from a child Vitest, without starting a second one. Light on purpose (no
 * parser, no process spawning): the reporter imports it at startup.
 */
import path from 'node:path';
import type { Vitest } from 'vitest/node';

export async function testFilesOf(vitest: Pick<Vitest, 'globTestSpecifications'>, root: string): Promise<string[]> {
  const specs = await vitest.globTestSpecifications();
  const rel = specs
    .filter((s) => s.pool !== 'typescript')
    .map((s) => path.relative(root, s.moduleId).split(path.sep).join('/'));
  return [...new Set(rel)].sort();
}
