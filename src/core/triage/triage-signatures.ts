/**
 * Log signatures: the rules that map a line of a CI log (or a test's error message) to a class, a
 * cause and an action. They are data; a project adds its own in `flakeguard.yaml` under
 * `triage.patterns` (those come first, so a project can override a built-in). The first signature
 * that matches a line wins, so specific signatures come before generic ones.
 */
import type { FindingClass, PatternRule } from './triage-config.js';

export interface LogSignature {
  readonly id: string;
  /** Literal text, unless `regex` is true (then a JavaScript regular expression, flag `m`). */
  readonly match: string;
  readonly regex?: boolean;
  readonly class: FindingClass;
  readonly cause: string;
  readonly action: string;
  /**
   * 'run' (default): a hit in the log is a finding on its own. 'test': it only explains why a
   * test failed (a timeout is a test failure, not infrastructure).
   */
  readonly scope?: 'run' | 'test';
  /** Reported only when nothing else explains a red run (e.g. npm's own "command failed"). */
  readonly fallback?: boolean;
  /** When one of these signatures also hit, this one's lines become their evidence instead. */
  readonly supersededBy?: readonly string[];
  /**
   * For a regex: literal texts of which every match contains at least one. The scanner looks for
   * these first (a fast literal search over hundreds of MB) and runs the regex only on those lines.
   */
  readonly needles?: readonly string[];
}

const OOM = ['heap-out-of-memory', 'oom-killer'];

export const BUILT_IN_SIGNATURES: readonly LogSignature[] = [
  {
    id: 'enospc',
    match: 'ENOSPC',
    class: 'infrastructure',
    cause: 'disk full on the runner (ENOSPC)',
    action: 'free disk space on the runner (caches, build output, Docker layers) or use a bigger disk',
  },
  {
    id: 'heap-out-of-memory',
    match: 'JavaScript heap out of memory',
    class: 'infrastructure',
    cause: 'Node ran out of heap memory',
    action: 'raise --max-old-space-size, lower Vitest maxWorkers, or find the test that leaks memory',
  },
  {
    id: 'oom-killer',
    match: 'Out of memory: Killed process|oom-kill|OOMKilled',
    regex: true,
    needles: ['Out of memory', 'oom-kill', 'OOMKilled'],
    class: 'infrastructure',
    cause: 'the kernel out-of-memory killer stopped a process',
    action: 'lower Vitest maxWorkers or use a runner with more memory',
  },
  // Before exit-137: Vitest 5 words a worker's death `Worker exited unexpectedly with exit code 137 during
  // started state while running test file <path>` (or `with signal SIGKILL`); Vitest 4 only `Worker exited unexpectedly`.
  {
    id: 'worker-crash',
    match:
      'Worker exited unexpectedly(?: with (?:exit code -?\\d+ )?(?:signal \\w+ )?during \\w+ state)?|\\[vitest-pool\\]: Worker \\w+ emitted error',
    regex: true,
    needles: ['Worker exited unexpectedly', '[vitest-pool]'],
    class: 'infrastructure',
    cause: 'a Vitest worker process died (killed by a signal, crashed or out of memory)',
    action:
      'look for code that exits or kills the worker, or a native crash, in the file that was running; check memory',
    supersededBy: OOM,
  },
  {
    id: 'exit-137',
    match: '(?:exit(?:ed with)? code|exit status) 137\\b|^Killed\\s*$',
    regex: true,
    needles: ['code 137', 'status 137', 'Killed'],
    class: 'infrastructure',
    cause: 'killed by SIGKILL (exit 137): out-of-memory killer or a timeout kill; no OOM message seen',
    action: "check the runner's memory and the job time limit; re-run to see whether it repeats",
    supersededBy: OOM,
  },
  {
    id: 'exit-143',
    match: '(?:exit(?:ed with)? code|exit status) 143\\b|The operation was canceled',
    regex: true,
    needles: ['code 143', 'status 143', 'The operation was canceled'],
    class: 'infrastructure',
    cause: 'terminated by SIGTERM (exit 143): the job was cancelled or hit its time limit',
    action: 'check the job time limit and whether a newer push cancelled the run',
  },
  {
    id: 'segfault',
    match: 'Segmentation fault|core dumped',
    regex: true,
    needles: ['Segmentation fault', 'core dumped'],
    class: 'infrastructure',
    cause: 'a process crashed (segmentation fault)',
    action: 'rebuild native modules for this Node version (npm rebuild) and re-run',
  },
  {
    id: 'rpc-timeout',
    match: 'Timeout calling "',
    class: 'infrastructure',
    cause: "Vitest's worker RPC timed out (runner overloaded or a blocked event loop)",
    action: 'lower maxWorkers or find the test that blocks the event loop',
  },
  {
    id: 'coverage-enoent',
    match: "ENOENT: no such file or directory, [a-z]+ '[^']*coverage[^']*'",
    regex: true,
    needles: ['ENOENT'],
    class: 'infrastructure',
    cause: 'the coverage collector lost its temporary files (a reused process id or a parallel run removed them)',
    action: 'run coverage in one process per checkout and keep reportsDirectory unique per shard',
  },
  {
    id: 'tsc-missing',
    match: 'tsc: (?:command )?not found|This is not the tsc command you are looking for',
    regex: true,
    needles: [': not found', 'command not found', 'This is not the tsc'],
    class: 'infrastructure',
    cause: 'the typecheck ran without its compiler (tsc not installed)',
    action: 'add typescript to devDependencies and run it with npx tsc after npm ci',
  },
  {
    id: 'command-not-found',
    match: 'command not found|^\\S*sh: (?:line )?\\d+: .*: not found',
    regex: true,
    needles: ['command not found', ': not found'],
    class: 'infrastructure',
    cause: 'a CI step ran a command that is not installed',
    action: 'install the tool in the CI image or add it to devDependencies and call it through npx',
  },
  {
    id: 'cannot-find-package',
    match: 'Cannot find package',
    class: 'infrastructure',
    cause: 'a package is not installed',
    action: 'run npm ci (is the package in dependencies and the lock file?)',
  },
  {
    id: 'cannot-find-module',
    match: 'Cannot find module',
    class: 'infrastructure',
    cause: 'a module is missing (not installed, not built, or a wrong import path)',
    action: 'run npm ci and the build step; check the import path',
  },
  {
    id: 'module-not-found',
    match: 'ERR_MODULE_NOT_FOUND',
    class: 'infrastructure',
    cause: 'a module is missing (ERR_MODULE_NOT_FOUND)',
    action: 'run npm ci and the build step; check the import path',
    supersededBy: ['cannot-find-module', 'cannot-find-package', 'failed-to-load-config'],
  },
  {
    id: 'econnrefused',
    match: 'ECONNREFUSED',
    class: 'infrastructure',
    cause: 'a service the tests need is not reachable (connection refused)',
    action: 'start the service before the tests (CI services/containers) and wait until it accepts connections',
  },
  {
    id: 'eaddrinuse',
    match: 'EADDRINUSE',
    class: 'infrastructure',
    cause: 'a port the tests need is already in use',
    action: 'use port 0 (a free port) or stop the process that holds it',
  },
  {
    id: 'etimedout',
    match: 'ETIMEDOUT|EAI_AGAIN',
    regex: true,
    needles: ['ETIMEDOUT', 'EAI_AGAIN'],
    class: 'infrastructure',
    cause: 'a network connection timed out or a name did not resolve',
    action: 'check the service or registry the step needs; mock the network in tests',
  },
  {
    id: 'shallow-clone',
    match:
      'fatal: ambiguous argument|unknown revision|fatal: bad revision|fatal: no merge base|fatal: reference is not a tree',
    regex: true,
    needles: [
      'fatal: ambiguous argument',
      'unknown revision',
      'fatal: bad revision',
      'fatal: no merge base',
      'fatal: reference is not a tree',
    ],
    class: 'infrastructure',
    cause: 'git history is missing (a shallow clone) or the head moved',
    action: 'fetch full history (actions/checkout fetch-depth: 0) and pin the commit the job runs on',
  },
  {
    id: 'dirty-tree',
    match: 'working tree is dirty|uncommitted changes|would be overwritten by (?:merge|checkout)',
    regex: true,
    needles: ['working tree is dirty', 'uncommitted changes', 'would be overwritten'],
    class: 'infrastructure',
    cause: 'the working tree was dirty',
    action: 'run from a clean checkout (git status --porcelain must be empty); commit or discard generated files',
  },
  {
    id: 'failed-to-load-config',
    match: 'failed to load config',
    class: 'infrastructure',
    cause: 'Vitest could not load its config',
    action: 'run npx vitest run locally and fix the config error it prints',
  },
  {
    id: 'reporter-load',
    match: 'Failed to load custom Reporter',
    class: 'infrastructure',
    cause: 'Vitest could not load a reporter',
    action: 'check the reporter path/package in the Vitest config',
  },
  {
    id: 'startup-error',
    match: 'Startup Error',
    class: 'infrastructure',
    cause: 'Vitest failed to start',
    action: 'run npx vitest run locally and fix the startup error it prints',
    supersededBy: ['failed-to-load-config', 'reporter-load'],
  },
  {
    id: 'no-test-files',
    match: 'No test files found',
    class: 'infrastructure',
    cause: 'Vitest found no test files (wrong include, filter or working directory)',
    action: 'check test.include and the folder the step runs in',
  },
  {
    id: 'npm-install',
    match: 'npm (?:ERR!|error) code (?!ELIFECYCLE)E[A-Z0-9]+',
    regex: true,
    needles: ['npm ERR! code', 'npm error code'],
    class: 'infrastructure',
    cause: 'an npm install or registry step failed',
    action: 'read the npm error code above; re-run npm ci (registry, lock file, engine)',
  },
  {
    id: 'test-timeout',
    match: 'Test timed out in',
    class: 'escape',
    scope: 'test',
    cause: 'the test timed out',
    action: 'wait for exactly what the assertion checks; raise the timeout only with a measured reason',
  },
  {
    id: 'hook-timeout',
    match: 'Hook timed out in',
    class: 'escape',
    scope: 'test',
    cause: 'a hook timed out',
    action: 'make the hook wait for exactly what it needs; stop fixture writers before deleting',
  },
  {
    id: 'npm-failed',
    match: '^npm (?:ERR!|error) ',
    regex: true,
    needles: ['npm ERR! ', 'npm error '],
    class: 'infrastructure',
    fallback: true,
    cause: 'an npm command failed',
    action: 'read the npm output above the error; run the same npm command locally',
  },
];

/** Project patterns first (they may override a built-in by reusing its id), then the built-ins. */
export function mergeSignatures(
  patterns: readonly PatternRule[],
  builtIn: readonly LogSignature[] = BUILT_IN_SIGNATURES,
): LogSignature[] {
  const own: LogSignature[] = patterns.map((p) => ({
    id: p.id,
    match: p.match,
    regex: p.regex,
    class: p.class,
    cause: p.cause,
    action: p.action === '' ? "see the project's triage.patterns in flakeguard.yaml" : p.action,
  }));
  const ids = new Set(own.map((s) => s.id));
  return [...own, ...builtIn.filter((s) => !ids.has(s.id))];
}
