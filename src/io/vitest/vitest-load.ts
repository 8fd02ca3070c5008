/**
 * The project's own Vitest Node API (resolved from the root the way Node does, resolve-vitest.ts),
 * for the children flakeguard drives: the gate's tries and the list of test files.
 */
import { pathToFileURL } from 'node:url';
import { resolveProjectVitest } from './resolve-vitest.js';

export type VitestNode = typeof import('vitest/node');

export async function loadProjectVitest(root: string): Promise<{ api: VitestNode; version: string }> {
  const found = resolveProjectVitest(root);
  const api = (await import(pathToFileURL(found.nodeApi).href)) as VitestNode;
  return { api, version: found.version };
}

export function firstLine(error: { message?: string } | undefined): string {
  return (error?.message ?? String(error)).split('\n')[0] ?? '';
}

/** Runs a child's main and exits: 0 when it finished, 1 with the stack when it threw. */
export function runChildMain(main: (arg: string) => Promise<void>, usage: string): void {
  const arg = process.argv[2];
  if (!arg) {
    process.stderr.write(`usage: ${usage}\n`);
    process.exit(2);
  }
  main(arg).then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
      process.exit(1);
    },
  );
}
