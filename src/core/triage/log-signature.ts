/**
 * A log signature: a rule that maps a line of a CI log (or a test's error message) to a class, a
 * cause and an action. Built-in ones are in triage-signatures.ts; a project adds its own in
 * `flakeguard.yaml` under `triage.patterns`.
 */
import type { FindingClass } from './triage-config.js';

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
