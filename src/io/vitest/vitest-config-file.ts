/**
 * Which project root and Vitest config a command uses, said in one line (issue 19, class 6): the
 * gate says it before its tries, `triage --rerun` before its re-runs, in the same words.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { displayPath } from '../files/input-file.js';

/** Vitest's config names, in the order it tries them (vitest/node: CONFIG_NAMES x CONFIG_EXTENSIONS). */
const CONFIG_NAMES = ['vitest.config', 'vite.config'];
export const CONFIG_EXTENSIONS = ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs'];

/**
 * The config file Vitest runs with from `root`: `--config` when given (resolved against the root, as
 * Vitest does), else the first of its config names in the root and then in each parent folder (the
 * lookup vitest/node does when it starts), else null (Vitest's defaults).
 */
export function findVitestConfigFile(root: string, given: string | null = null): string | null {
  if (given !== null) return path.resolve(root, given);
  for (let dir = path.resolve(root); ; dir = path.dirname(dir)) {
    for (const name of CONFIG_NAMES)
      for (const ext of CONFIG_EXTENSIONS)
        if (existsSync(path.join(dir, `${name}${ext}`))) return path.join(dir, `${name}${ext}`);
    if (path.dirname(dir) === dir) return null;
  }
}

/** `project root web, Vitest config web/vitest.config.ts`, or `Vitest config none (Vitest's defaults)`. */
export function describeProjectPlace(root: string, configFile: string | null): string {
  return `project root ${displayPath(root)}, Vitest config ${configFile === null ? "none (Vitest's defaults)" : displayPath(configFile)}`;
}
