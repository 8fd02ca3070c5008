/**
 * The CLI run inside the test's own process: `runCli` (src/commands/cli-main.ts, the dispatch
 * behind src/cli.ts, errors mapped the same way; built in the e2e tier, source in the unit tier) with stdout and stderr captured, for the tables of
 * arguments, validation and config files whose subject is what flakeguard says and its exit code,
 * not a process start (test/e2e/cli-smoke.test.ts keeps one spawned run per command).
 *
 * Process-global state is saved and restored around each call: the cwd (the fixture's folder while
 * the command runs), the environment (the fixture's variables: NO_COLOR, CI, and `env`), the
 * process.exitCode, the stdout/stderr writers, and the listeners of the signals and process events
 * a command may add. Calls are queued: two commands never share the process state at once.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { inject } from 'vitest';
import type { runCli as RunCli } from '../../src/commands/cli-main.js';
import { hasHistoryStore, type RunResult } from './fixture.js';
import { countProcess } from './process-budget.js';
import './provided.js';

const ANSI = /\u001b\[[0-9;]*m/g;
const EVENTS = [
  'SIGINT',
  'SIGTERM',
  'SIGHUP',
  'exit',
  'beforeExit',
  'unhandledRejection',
  'uncaughtException',
] as const;
/** What a user's CI shell gives the command (as test/helpers/fixture.ts's spawned runs). */
const FIXTURE_ENV: Record<string, string | undefined> = {
  NO_COLOR: '1',
  FORCE_COLOR: '0',
  CI: 'true',
  GITHUB_ACTIONS: undefined,
  GITHUB_STEP_SUMMARY: undefined,
  NODE_OPTIONS: undefined,
};

let queue: Promise<unknown> = Promise.resolve();
let loaded: Promise<typeof RunCli> | undefined;

/**
 * The dispatch to run: in the e2e and release tiers the built one in dist/ (what spawned runs run),
 * loaded by Node itself (vitest.config.ts externalizes dist/: no transform per test file); in the
 * unit tier, which needs no build, the source.
 */
function cliMain(): Promise<typeof RunCli> {
  const built = path.resolve(import.meta.dirname, '../../dist/commands/cli-main.js');
  loaded ??= inject('builtPackage')
    ? (import(/* @vite-ignore */ pathToFileURL(built).href) as Promise<{ runCli: typeof RunCli }>).then((m) => m.runCli)
    : import('../../src/commands/cli-main.js').then((m) => m.runCli);
  return loaded;
}

type Write = typeof process.stdout.write;

function capture(stream: NodeJS.WriteStream, into: string[]): () => void {
  const original = stream.write;
  stream.write = ((chunk: unknown, ...rest: unknown[]): boolean => {
    into.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
    const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    done?.();
    return true;
  }) as Write;
  return () => {
    stream.write = original;
  };
}

function setEnv(values: Record<string, string | undefined>): () => void {
  const saved = Object.fromEntries(Object.keys(values).map((k) => [k, process.env[k]]));
  const apply = (v: Record<string, string | undefined>): void => {
    for (const [k, value] of Object.entries(v)) {
      if (value === undefined) delete process.env[k];
      else process.env[k] = value;
    }
  };
  apply(values);
  return () => apply(saved);
}

function keepListeners(): () => void {
  // process.listeners is typed per event; as an EventEmitter the process takes any of them.
  const emitter = process as NodeJS.EventEmitter;
  const before = new Map(EVENTS.map((e) => [e, new Set(emitter.listeners(e))]));
  return () => {
    for (const e of EVENTS)
      for (const l of emitter.listeners(e)) if (!before.get(e)?.has(l)) emitter.removeListener(e, l as () => void);
  };
}

async function runIsolated(cwd: string, args: readonly string[], env: Record<string, string>): Promise<RunResult> {
  const out: string[] = [];
  const err: string[] = [];
  const exitCode = process.exitCode;
  const previousCwd = process.cwd();
  // Without this worker's VITEST* variables, as a spawned run (fixture.ts's baseEnv) and a user's
  // shell: the Vitest a command starts must not think it runs inside a Vitest worker.
  const vitestVars = Object.keys(process.env).filter((k) => k.startsWith('VITEST'));
  const cleared = Object.fromEntries(vitestVars.map((k) => [k, undefined]));
  const restore = [setEnv({ ...cleared, ...FIXTURE_ENV, ...env }), keepListeners()];
  process.chdir(cwd);
  restore.push(capture(process.stdout, out), capture(process.stderr, err));
  try {
    const runCli = await cliMain();
    const code = await runCli(args);
    // Without the last newline, as execa gives a spawned run's output.
    const stdout = out.join('').replace(/\n$/, '');
    const stderr = err.join('').replace(/\n$/, '');
    const output = `${stdout}\n${stderr}`.replace(ANSI, '').split(cwd).join('<root>');
    return { exitCode: code, stdout, stderr, output };
  } finally {
    for (const undo of restore.reverse()) undo();
    process.chdir(previousCwd);
    process.exitCode = exitCode;
  }
}

/** `flakeguard ...args` run in this process with `cwd` as its folder; the same result as a spawned run (fixture.ts). */
export function runCliInProcess(
  cwd: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<RunResult> {
  const run = queue.then(() => runIsolated(cwd, args, env));
  queue = run.catch(() => undefined);
  return run;
}

/**
 * `fx.flakeguard(args, env)` (test/helpers/fixture.ts) run in this process: the same result with no
 * process started; a history store the command creates is counted for the process budget as there.
 */
export async function flakeguardInProcess(
  fx: { readonly root: string },
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<RunResult> {
  const storeBefore = hasHistoryStore(fx.root, env);
  const run = await runCliInProcess(fx.root, args, env);
  if (!storeBefore && hasHistoryStore(fx.root, env)) countProcess('storeCreate');
  return run;
}
