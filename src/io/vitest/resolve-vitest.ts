/**
 * The project's own Vitest, found the way Node finds it from the project root: `<root>/node_modules`,
 * then each parent folder's (npm, Yarn and pnpm workspaces hoist it to the workspace root; pnpm links
 * it through a symlink, which Node follows). One module for the gate and triage.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { FlakeguardError } from '../../core/errors.js';

export interface ProjectVitest {
  /** The folder of the vitest package (symlinks resolved). */
  readonly packageDir: string;
  readonly version: string;
  /** The CLI entry: `node <entry> run ...`. */
  readonly entry: string;
  /** The Node API module (`vitest/node`). */
  readonly nodeApi: string;
}

export function resolveProjectVitest(root: string): ProjectVitest {
  const require = createRequire(path.join(path.resolve(root), 'package.json'));
  let pkgFile: string;
  try {
    pkgFile = require.resolve('vitest/package.json');
  } catch {
    const searched = require.resolve.paths('vitest') ?? [];
    const first = searched[0] ?? path.join(root, 'node_modules');
    throw new FlakeguardError(
      'VITEST',
      `Vitest is not installed for ${root}: looked for node_modules/vitest in ${first} and its ${searched.length - 1} parent folders; install the project's dependencies (npm ci, pnpm install or yarn) or pass --root <the project's folder>`,
    );
  }
  const packageDir = path.dirname(pkgFile);
  const version = (JSON.parse(readFileSync(pkgFile, 'utf8')) as { version?: string }).version ?? 'unknown';
  return {
    packageDir,
    version,
    entry: path.join(packageDir, 'vitest.mjs'),
    nodeApi: path.join(packageDir, 'dist/node.js'),
  };
}
