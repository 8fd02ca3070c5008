/**
 * Vitest prints an error thrown from a reporter's onInit under "Unhandled Error" with its stack and
 * a code frame, then exits 1 before any test runs. For a known error (bad flakeguard.yaml, a bad FLAKEGUARD_SEED) the
 * stack is noise, so the error is re-made with a stack that is just the message.
 */
import { isFlakeguardError } from '../core/errors.js';

export function toStartupError(error: unknown): unknown {
  if (!isFlakeguardError(error)) return error;
  // No `cause`: Vitest would print the cause with its stack.
  const surfaced = new Error(`${error.message}\nThe run stopped before any test started; fix it and run again.`);
  surfaced.name = 'flakeguard';
  surfaced.stack = `${surfaced.name}: ${surfaced.message}`;
  return surfaced;
}
