/**
 * The project's test files as its own Vitest sees them (include, exclude, projects, dir, root,
 * `--config`, `--project`), each with its project: one function for the gate's selection and the
 * allowance test list. Asked in a child process (vitest-list-child.ts, started through
 * io/process/spawn-guarded.ts so it dies with flakeguard): Vitest loads the config, globs, and
 * runs no test. With `affectedBy`, also the test files that import those modules.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { FlakeguardError, interruptedError } from '../../core/errors.js';
import { startErrorLine } from '../../core/vitest-startup-cause.js';
import { findTestFiles } from '../source/source-files.js';
import { startChildJob } from './child-job.js';
import { resolveProjectVitest } from './resolve-vitest.js';
import type { ListJob, ListResult, ListStartError } from './vitest-list-child.js';
import { DEFAULT_SETUP, type VitestSetup } from './vitest-setup.js';

export interface VitestTestFile {
  /** Relative to the root, with `/`. */
  readonly file: string;
  /** Vitest project name ('' when unnamed). */
  readonly project: string;
}

export interface TestFileList {
  readonly vitestVersion: string;
  readonly projects: readonly string[];
  /** One entry per file and project: a file in two projects is listed twice. */
  readonly files: readonly VitestTestFile[];
  /** Test files importing a changed module (`affectedBy`), with the modules (relative) they import. */
  readonly affected: readonly (VitestTestFile & { readonly via: readonly string[] })[];
  /** The config file Vitest loaded (absolute), or null when it runs on its defaults. */
  readonly configFile: string | null;
  /** A project's custom `test.runner` (the gate refuses it before it starts anything), or null. */
  readonly customRunner: string | null;
}

export interface ListOptions {
  readonly root: string;
  readonly setup?: VitestSetup;
  /** Changed modules (relative to the root) whose importing test files to find. */
  readonly affectedBy?: readonly string[];
  readonly signal?: AbortSignal;
}

const toPosix = (p: string): string => p.split(path.sep).join('/');

export async function listTestFiles(options: ListOptions): Promise<TestFileList> {
  const root = path.resolve(options.root);
  const { job, child, end } = startChildJob(
    {
      script: 'io/vitest/vitest-list-child.js',
      prefix: 'flakeguard-list-',
      cwd: root,
      ...(options.signal ? { signal: options.signal } : {}),
    },
    (tmp): ListJob => ({
      root,
      setup: options.setup ?? DEFAULT_SETUP,
      affectedBy: (options.affectedBy ?? []).map((f) => path.resolve(root, f)),
      resultFile: path.join(tmp, 'result.json'),
    }),
  );
  try {
    const result = await child.result;
    if (options.signal?.aborted) throw interruptedError('listing the test files was');
    if (result.exitCode !== 0 || !existsSync(job.resultFile)) {
      const tail = String(result.stderr).trim().split('\n').slice(-8).join('\n');
      throw new FlakeguardError(
        'VITEST',
        `Vitest could not list the test files of ${root} (exit ${result.exitCode ?? result.signal}):\n${tail}\nRun npx vitest list --filesOnly to see the problem.`,
      );
    }
    const listed = JSON.parse(readFileSync(job.resultFile, 'utf8')) as ListResult | ListStartError;
    if ('startError' in listed) {
      throw new FlakeguardError(
        'VITEST',
        `Vitest could not start in ${root}: ${startErrorLine(listed.startError)}; check the Vitest config${(options.setup?.projects.length ?? 0) > 0 ? ' and the --project names' : ''} (npx vitest list --filesOnly shows the same error)`,
      );
    }
    const rel = (f: string): string => toPosix(path.relative(root, f));
    return {
      vitestVersion: listed.vitestVersion,
      projects: listed.projects,
      files: listed.files
        .map((f) => ({ file: rel(f.file), project: f.project }))
        .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.project < b.project ? -1 : 1)),
      affected: listed.affected.map((a) => ({ file: rel(a.file), project: a.project, via: a.via.map(rel) })),
      configFile: listed.configFile ?? null,
      customRunner: listed.customRunner ?? null,
    };
  } finally {
    end();
  }
}

/**
 * Just the test file paths (relative, `/`, each once): the allowance test list. A folder with no
 * Vitest installed has no config to ask: there, the files Vitest's default include would take.
 */
export async function listTestFilePaths(root: string, setup?: VitestSetup): Promise<string[]> {
  try {
    resolveProjectVitest(root);
  } catch (error) {
    if (error instanceof FlakeguardError && error.code === 'VITEST') return findTestFiles(root);
    throw error;
  }
  const listed = await listTestFiles({ root, ...(setup ? { setup } : {}) });
  return [...new Set(listed.files.map((f) => f.file))];
}
