/**
 * The e2e tier's global setup: its tests run the built package (dist/), as a user's Vitest and
 * shell do, so a build older than the source would test old code and pass. Before any e2e test
 * starts, every src/**.ts must have its dist/**.js written at or after the source's last change;
 * otherwise the run stops and names the files. `npm run test:e2e` and `npm test` build first.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import './provided.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

function listSources(dir: string): string[] {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  return entries.flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return listSources(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Source files whose built file is missing or older, as `src/x.ts (why)`, relative to `root`. */
export function findStaleBuild(root: string): string[] {
  const src = path.join(root, 'src');
  const stale: string[] = [];
  for (const file of listSources(src)) {
    const rel = path.relative(src, file);
    const built = path.join(root, 'dist', rel.replace(/\.ts$/, '.js'));
    const shown = `src/${rel.split(path.sep).join('/')}`;
    if (!existsSync(built)) stale.push(`${shown} (not built)`);
    else if (statSync(built).mtimeMs < statSync(file).mtimeMs) stale.push(`${shown} (changed after dist/ was built)`);
  }
  return stale;
}

/** Throws, naming the stale files and the command to run, when dist/ is older than src/. */
export function assertBuildIsFresh(root: string): void {
  const stale = findStaleBuild(root);
  if (stale.length === 0) return;
  const shown = stale.slice(0, 5).join(', ') + (stale.length > 5 ? ` and ${stale.length - 5} more` : '');
  const what = existsSync(path.join(root, 'dist')) ? `dist/ is older than src/: ${shown}` : 'there is no dist/';
  throw new Error(
    `the e2e tests run the built package, and ${what}. ` +
      'Run `npm run build` first, or `npm run test:e2e` (it builds, then runs the e2e tier); `npm run test:unit` needs no build.',
  );
}

/**
 * Vitest calls this before the first e2e test file; the tier's workers learn that dist/ is fresh
 * (the in-process CLI, test/helpers/in-process-cli.ts, then runs the built one, as spawned runs do).
 */
export default function setup(project: TestProject): void {
  assertBuildIsFresh(ROOT);
  project.provide('builtPackage', true);
}
