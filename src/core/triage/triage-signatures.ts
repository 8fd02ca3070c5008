/**
 * Log signatures: the rules that map a line of a CI log (or a test's error message) to a class, a
 * cause and an action. They are data; a project adds its own in `flakeguard.yaml` under
 * `triage.patterns` (those come first, so a project can override a built-in). The first signature
 * that matches a line wins, so specific signatures come before generic ones.
 */
import type { LogSignature } from './log-signature.js';
import { RUNNER_SIGNATURES } from './log-signatures-runner.js';
import { NPM_FAILED_SIGNATURE, SETUP_SIGNATURES } from './log-signatures-setup.js';
import type { PatternRule } from './triage-config.js';

export type { LogSignature } from './log-signature.js';

/** Timeouts explain why a test failed; alone in a log they are no finding (scope 'test'). */
const TEST_SIGNATURES: readonly LogSignature[] = [
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
];

export const BUILT_IN_SIGNATURES: readonly LogSignature[] = [
  ...RUNNER_SIGNATURES,
  ...SETUP_SIGNATURES,
  ...TEST_SIGNATURES,
  NPM_FAILED_SIGNATURE,
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
