/**
 * Finds and reads `flakeguard.yaml`: at the Vitest root, walking up to the git root. A config above
 * TEXT_FILE_LIMIT_BYTES (1 MiB) is refused unread, and `allowances:`/`records:` must not name a file.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { type Config, DEFAULT_CONFIG, parseConfig } from '../../core/config.js';
import { FlakeguardError } from '../../core/errors.js';
import { excerpt } from '../../core/excerpt.js';
import { readUserTextFile } from '../files/input-file.js';

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

/**
 * The folder a command starts from (--root, else the working folder) must exist and be a folder:
 * checked here, where every command loads its config, so none of them answers for a folder that
 * is not there ("not inside a git repository", "nothing to run").
 */
function requireRootFolder(startDir: string): void {
  let stat;
  try {
    stat = statSync(startDir);
  } catch {
    throw new FlakeguardError(
      'USAGE',
      `the project root ${startDir} does not exist; pass an existing folder to --root`,
    );
  }
  if (!stat.isDirectory())
    throw new FlakeguardError(
      'USAGE',
      `the project root ${startDir} is a file, not a folder; pass the project's folder to --root`,
    );
}

export function loadConfig(startDir: string): LoadedConfig {
  requireRootFolder(startDir);
  const file = findConfigFile(startDir);
  if (file === null) return { config: DEFAULT_CONFIG, file: null, root: path.resolve(startDir) };
  const display = path.relative(process.cwd(), file).split(path.sep).join('/') || CONFIG_FILE;
  const config = parseConfig(readUserTextFile(file, 'a flakeguard.yaml'), display);
  const root = path.dirname(file);
  for (const key of ['allowances', 'records'] as const) {
    if (isFile(path.resolve(root, config[key]))) {
      throw new FlakeguardError(
        'CONFIG_INVALID',
        `${display}: ${key} ${excerpt(config[key])} is a file, not a folder; name the folder of ${key === 'allowances' ? 'allowance files (default allowances)' : 'run records (default .flakeguard/runs)'}`,
      );
    }
  }
  return { config, file, root };
}

function isFile(target: string): boolean {
  try {
    return !statSync(target).isDirectory();
  } catch {
    return false;
  }
}
