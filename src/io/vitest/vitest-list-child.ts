/**
 * `node vitest-list-child.js <job.json>`: asks the project's own Vitest (its config, `--config`,
 * `--project`) which files are tests, in which project (globTestSpecifications: include, exclude,
 * projects, dir, root), and, for `affectedBy`, which test files import each changed module directly
 * or through other modules (getRelevantTestSpecifications with `related`, as `vitest related` does;
 * forceRerunTriggers are not applied: only imports select). Runs nothing. Writes the result JSON.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { specKey } from '../../core/tuple-key.js';
import { loadProjectVitest, runChildMain } from './vitest-load.js';
import { setupOptions, type VitestSetup } from './vitest-setup.js';

export interface ListJob {
  readonly root: string;
  readonly setup: VitestSetup;
  /** Absolute paths of changed modules that are not test files. */
  readonly affectedBy: readonly string[];
  readonly resultFile: string;
}

/** Vitest could not start (bad config, no matching --project): its message, for the parent to print. */
export interface ListStartError {
  readonly startError: string;
}

export interface ListResult {
  readonly vitestVersion: string;
  readonly projects: readonly string[];
  /** Absolute test file paths with their project name ('' when unnamed). */
  readonly files: readonly { readonly file: string; readonly project: string }[];
  readonly affected: readonly { readonly file: string; readonly project: string; readonly via: readonly string[] }[];
  /** The config file Vitest loaded (absolute), or null when it runs on its defaults. */
  readonly configFile: string | null;
  /** The first project's custom `test.runner`, or null: the gate cannot time tries through one. */
  readonly customRunner: string | null;
}

async function main(jobFile: string): Promise<void> {
  const job = JSON.parse(readFileSync(jobFile, 'utf8')) as ListJob;
  const { api, version } = await loadProjectVitest(job.root);
  let vitest;
  try {
    vitest = await api.createVitest('test', {
      ...setupOptions(job.root, job.setup),
      watch: false,
      reporters: [],
      passWithNoTests: true,
      coverage: { enabled: false },
    });
  } catch (error) {
    const startError: ListStartError = { startError: (error as Error)?.message ?? String(error) };
    writeFileSync(job.resultFile, JSON.stringify(startError));
    return;
  }
  try {
    const specs = (await vitest.globTestSpecifications()).filter((s) => s.pool !== 'typescript');
    const files = specs.map((s) => ({ file: s.moduleId, project: s.project.name }));
    const via = new Map<string, { file: string; project: string; via: string[] }>();
    if (job.affectedBy.length > 0) {
      const config = vitest.config as { related?: string[]; forceRerunTriggers: string[] };
      config.forceRerunTriggers = [];
      for (const changed of job.affectedBy) {
        config.related = [changed];
        for (const s of await vitest.getRelevantTestSpecifications()) {
          if (s.pool === 'typescript') continue;
          const k = specKey(s.moduleId, s.project.name);
          const entry = via.get(k) ?? { file: s.moduleId, project: s.project.name, via: [] };
          entry.via.push(changed);
          via.set(k, entry);
        }
      }
    }
    const configFile =
      (vitest as unknown as { vite?: { config?: { configFile?: string } } }).vite?.config?.configFile ?? null;
    const result: ListResult = {
      vitestVersion: version,
      projects: vitest.projects.map((p) => p.name),
      files,
      affected: [...via.values()],
      configFile,
      customRunner: vitest.projects.map((p) => p.config.runner).find((r) => typeof r === 'string' && r !== '') ?? null,
    };
    writeFileSync(job.resultFile, JSON.stringify(result));
  } finally {
    await vitest.close();
  }
}

runChildMain(main, 'vitest-list-child.js <job.json>');
