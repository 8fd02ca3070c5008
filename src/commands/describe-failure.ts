/**
 * What the CLI prints and the exit code for an error that ended a command (used only by src/cli.ts,
 * the one exit point): a FlakeguardError prints its one-line message and exits its code; an fs error
 * on a path is a usage error naming the path (2); anything else is a bug: exit 2 with its stack and a
 * request for a bug report.
 */
import { createRequire } from 'node:module';
import { isFlakeguardError } from '../core/errors.js';
import { redactSecrets } from '../core/secrets.js';
import { escapeTerminal } from '../core/untrusted-text.js';
import { describePathError, isPathError } from '../io/files/input-file.js';

export function flakeguardVersion(): string {
  try {
    return (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

export interface Failure {
  readonly exitCode: number;
  /** For stderr, without the final newline. */
  readonly text: string;
}

/** A message as the user sees it: no control character, no line that is a workflow command, no history password. */
function shown(message: string): string {
  const url = process.env['FLAKEGUARD_HISTORY_URL'];
  // A few messages carry Vitest's last lines on purpose: each line is escaped on its own.
  return `flakeguard: ${redactSecrets(message, url ? [url] : [])
    .split('\n')
    .map(escapeTerminal)
    .join('\n')}`;
}

export function describeFailure(error: unknown): Failure {
  if (isFlakeguardError(error)) return { exitCode: error.exitCode, text: shown(error.message) };
  if (isPathError(error)) return { exitCode: 2, text: shown(describePathError(error)) };
  const detail = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  return {
    exitCode: 2,
    text: `flakeguard: internal error (a bug in flakeguard, not in your project):\n${detail}\nPlease report it with the command you ran and this output (flakeguard ${flakeguardVersion()}, Node ${process.version}, ${process.platform}).`,
  };
}
