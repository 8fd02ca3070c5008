/**
 * Triage says "green" only when an input showed a run: an exit code, a test or file result, or the
 * summary Vitest prints at the end of a run in the log. `{}`, `[]`, an empty or unrelated log show
 * nothing, and triage stops instead of calling that green.
 */
import type { TriageInputs } from './triage-types.js';

export function inputsShowRun(inputs: TriageInputs): boolean {
  return (
    inputs.exitCode !== null ||
    inputs.tests.length > 0 ||
    inputs.files.length > 0 ||
    inputs.unhandled.length > 0 ||
    inputs.logs.some((scan) => scan.events.some((e) => e.id === 'vitest:summary'))
  );
}
