/**
 * Fixture projects for end-to-end tests: files written to a temp folder, the repo's node_modules
 * linked in, and the real Vitest (or the built flakeguard CLI) run there.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, onTestFinished } from 'vitest';
import { cliKind, countProcess, countVitestStarts } from './process-budget.js';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
/**
 * The built reporter (`npm run build` first; `npm test` does), as a fixture's Vitest config names
 * it. Built, not from source: a user's Vitest imports it from node_modules with Node's own loader,
 * and so must the tests (DIST_AS_MODULES). (From source, Vite transforms it, and in a
 * `--merge-reports` run the reporter's lazy imports came back empty.)
 */
export const REPORTER_BUILT = path.join(REPO_ROOT, 'dist/reporter/index.js');
/** The built CLI (`npm run build` first; `npm test` does). */
export const CLI_BUILT = path.join(REPO_ROOT, 'dist/cli.js');

/**
 * flakeguard's built package as a module directory (VITEST_MODULE_DIRECTORIES in the environment
 * of every fixture process, Vitest's `deps.moduleDirectories` beside `/node_modules/`): the fixtures'
 * Vitest loads it the way a user's Vitest loads it from node_modules, by Node, as an external
 * module. Outside node_modules, dist/ was transformed by Vite instead, module by module, in every
 * fixture run (the reporter in the Vitest process, the gate's runner in every try's worker): a
 * one-test fixture run with the reporter took 1.45 CPU s, 0.9-1.1 with this (5 runs each, same
 * window; 0.7-0.9 without the reporter). Vitest 5 without the variable only runs slower.
 */
export const DIST_AS_MODULES: Readonly<Record<string, string>> = {
  VITEST_MODULE_DIRECTORIES: path.join(REPO_ROOT, 'dist'),
};

export interface Fixture {
  readonly root: string;
  write(relPath: string, content: string): void;
  /** Runs `vitest run ...args` in the fixture with the repo's Vitest. */
  vitest(args?: readonly string[], env?: Record<string, string>): Promise<RunResult>;
  /** Runs the built `flakeguard` CLI in the fixture. */
  flakeguard(args: readonly string[], env?: Record<string, string>): Promise<RunResult>;
  /** Runs git in the fixture (a repo is initialised with `git: true`). */
  git(args: readonly string[]): Promise<string>;
  /**
   * A copy of the fixture as it is now (files, git repo, .flakeguard), in a temp folder of its own:
   * an expensive setup (a git history, allowances added through the CLI) made once in `beforeAll`,
   * then one independent copy per test.
   */
  copy(): Fixture;
  remove(): void;
}

export interface RunResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout + stderr with colours stripped and the temp root replaced by <root>. */
  readonly output: string;
}

export interface FixtureOptions {
  readonly files?: Record<string, string>;
  /** Init a git repo and commit the files as the first commit on `main`. */
  readonly git?: boolean;
}

const ANSI = /\u001b\[[0-9;]*m/g;

function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (
      v !== undefined &&
      !k.startsWith('VITEST') &&
      k !== 'GITHUB_ACTIONS' &&
      k !== 'GITHUB_STEP_SUMMARY' &&
      k !== 'NODE_OPTIONS'
    )
      env[k] = v;
  }
  return { ...env, NO_COLOR: '1', FORCE_COLOR: '0', CI: 'true', ...DIST_AS_MODULES, ...extra };
}

/**
 * Whether the fixture has an embedded history store where the product opens it (flakeguard.yaml's
 * `records`, or FLAKEGUARD_RECORDS, default .flakeguard/runs): a run after which there is one and
 * before which there was none created it (counted for the process budget).
 */
export function hasHistoryStore(root: string, env: Record<string, string> | undefined): boolean {
  const yaml = path.join(root, 'flakeguard.yaml');
  const configured = existsSync(yaml)
    ? /^records:\s*['"]?([^'"\s#]+)/m.exec(readFileSync(yaml, 'utf8'))?.[1]
    : undefined;
  const records = env?.['FLAKEGUARD_RECORDS'] ?? configured ?? '.flakeguard/runs';
  return existsSync(path.join(path.resolve(root, records), 'history', 'PG_VERSION'));
}

const tempRoot = (): string => mkdtempSync(path.join(os.tmpdir(), 'flakeguard-fx-'));

/** The fixture in `root`: writes files there and runs Vitest, the CLI and git with it as cwd. */
function fixtureAt(root: string): Fixture {
  const write = (relPath: string, content: string): void => {
    const target = path.join(root, relPath);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
  };
  const normalise = (text: string): string => text.replace(ANSI, '').split(root).join('<root>');
  const run = async (file: string, args: readonly string[], env?: Record<string, string>): Promise<RunResult> => {
    const storeBefore = hasHistoryStore(root, env);
    const result = await execa(file, args, {
      cwd: root,
      reject: false,
      env: baseEnv(env),
      extendEnv: false,
      stdin: 'ignore',
    });
    if (!storeBefore && hasHistoryStore(root, env)) countProcess('storeCreate');
    const stdout = String(result.stdout);
    const stderr = String(result.stderr);
    return { exitCode: result.exitCode ?? 1, stdout, stderr, output: normalise(`${stdout}\n${stderr}`) };
  };
  const git = async (args: readonly string[]): Promise<string> => {
    const result = await execa('git', args, {
      cwd: root,
      env: baseEnv({
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@t',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@t',
      }),
      extendEnv: false,
    });
    return String(result.stdout);
  };
  return {
    root,
    write,
    vitest: (args = [], env) => {
      countProcess('vitest');
      return run(process.execPath, [path.join(REPO_ROOT, 'node_modules/vitest/vitest.mjs'), 'run', ...args], env);
    },
    flakeguard: async (args, env) => {
      const kind = cliKind(args);
      countProcess(kind);
      const result = await run(process.execPath, [CLI_BUILT, ...args], env);
      if (kind === 'gate') countVitestStarts(result.stderr);
      return result;
    },
    git,
    copy: () => {
      const to = tempRoot();
      // verbatimSymlinks: node_modules stays a link to the repo's, not a copy of it.
      cpSync(root, to, { recursive: true, verbatimSymlinks: true });
      return fixtureAt(to);
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

export async function createFixture(options: FixtureOptions = {}): Promise<Fixture> {
  const root = tempRoot();
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  const fixture = fixtureAt(root);
  if (!options.files?.['package.json'])
    fixture.write('package.json', JSON.stringify({ name: 'fixture', type: 'module', private: true }));
  for (const [rel, content] of Object.entries(options.files ?? {})) fixture.write(rel, content);
  if (options.git) {
    fixture.write('.gitignore', 'node_modules\n.flakeguard\n');
    await fixture.git(['init', '-q', '-b', 'main']);
    await fixture.git(['add', '-A']);
    await fixture.git(['commit', '-qm', 'initial']);
  }
  return fixture;
}

/**
 * An expensive fixture made once per test file (in `beforeAll`), and a copy of it for each test
 * that calls the returned function, removed when that test finishes: the tests share the setup's
 * cost, never its state.
 */
export function fixtureCopies(make: () => Promise<Fixture>): () => Fixture {
  let template: Fixture | undefined;
  beforeAll(async () => {
    template = await make();
  });
  afterAll(() => template?.remove());
  return () => {
    if (!template) throw new Error('the template fixture was not made (its beforeAll failed)');
    const copy = template.copy();
    onTestFinished(() => copy.remove());
    return copy;
  };
}

/**
 * `run` with the fixture's node_modules link removed (Vitest not installed there), then put back:
 * for a command whose subject is not which files are tests, `allowances` and `quarantine` then take
 * the files of Vitest's default include (io/vitest/list-test-files.ts) instead of starting the
 * project's Vitest to ask (about 0.6 CPU-s a command). Not for two runs at once in one fixture.
 */
export async function withoutVitest<T>(fx: Fixture, run: () => Promise<T>): Promise<T> {
  const link = path.join(fx.root, 'node_modules');
  rmSync(link);
  try {
    return await run();
  } finally {
    symlinkSync(path.join(REPO_ROOT, 'node_modules'), link, 'dir');
  }
}

/** A Vitest config that uses the default reporter and flakeguard's built reporter. */
export function vitestConfigWithReporter(extra = ''): string {
  return `import { defineConfig } from 'vitest/config';
export default defineConfig({ test: { reporters: ['default', ${JSON.stringify(REPORTER_BUILT)}], ${extra} } });
`;
}
