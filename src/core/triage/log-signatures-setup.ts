/**
 * Built-in log signatures for the job's setup: tools and modules not installed, services and the
 * network, the git checkout, Vitest failing to start, npm. In order: the first that matches a line
 * wins (triage-signatures.ts).
 */
import type { LogSignature } from './log-signature.js';

export const SETUP_SIGNATURES: readonly LogSignature[] = [
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
    // Vitest's own words, typo and all ("must be a smaller than"), in every shard of a matrix with
    // more shards than the suite has test files: Vitest refuses to run, before any test (issue 48).
    id: 'shard-count',
    match: '--shard <count> must be (?:a )?smaller than (?:the )?count of test files',
    regex: true,
    needles: ['--shard <count> must be'],
    class: 'infrastructure',
    cause:
      'the CI matrix runs more shards than the suite has test files, so Vitest refused every shard (--shard <count>)',
    action:
      'run at most as many shards as there are test files: lower the shard count of the CI matrix (or add the test files first)',
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
];

/** Any npm error: reported only when nothing else explains the red run, so it comes last of all. */
export const NPM_FAILED_SIGNATURE: LogSignature = {
  id: 'npm-failed',
  match: '^npm (?:ERR!|error) ',
  regex: true,
  needles: ['npm ERR! ', 'npm error '],
  class: 'infrastructure',
  fallback: true,
  cause: 'an npm command failed',
  action: 'read the npm output above the error; run the same npm command locally',
};
