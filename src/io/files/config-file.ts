/** Finds and reads `flakeguard.yaml`: at the Vitest root, walking up to the git root. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_CONFIG, parseConfig, type Config } from '../../core/config.js';

export const CONFIG_FILE = 'flakeguard.yaml';

export interface LoadedConfig {
  readonly config: Config;
  /** Absolute path of the file read, or null when none exists (defaults apply). */
  readonly file: string | null;
  /** The folder that holds the config, else the start folder: the project root for relative paths. */
  readonly root: string;
}

export function findConfigFile(startDir: string): string | null {
  let dir = path.resolve(startDir);
  for (;;) {
    const candidate = path.join(dir, CONFIG_FILE);
    if (existsSync(candidate)) return candidate;
    if (existsSync(path.join(dir, '.git'))) return null;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

export function loadConfig(startDir: string): LoadedConfig {
  const file = findConfigFile(startDir);
  if (file === null) return { config: DEFAULT_CONFIG, file: null, root: path.resolve(startDir) };
  const display = path.relative(process.cwd(), file).split(path.sep).join('/') || CONFIG_FILE;
  return { config: parseConfig(readFileSync(file, 'utf8'), display), file, root: path.dirname(file) };
}
