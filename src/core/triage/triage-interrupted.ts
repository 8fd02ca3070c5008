/**
 * A red run with no failing test that the run records say Vitest interrupted: stopped before its
 * end. Without a signal exit (130, 143: triage-exit.ts), that is Vitest's `--bail`, which stops a run
 * after its count of failed tests, and counts a quarantined test's failure as one (quarantine only
 * keeps the failure from failing the run: docs/quarantine.md); or a cancel. Not "an exit code that
 * no test explains": the records explain it. Pure.
 */
import { clipText } from '../excerpt.js';
import { type Draft, makeDraft } from './triage-rule.js';
import type { TriageInputs } from './triage-types.js';

/** Quarantined tests named in the evidence; the others are counted. */
const NAMED = 3;

export function interruptedDraft(inputs: TriageInputs, exit: string): Draft {
  const quarantined = inputs.tests.filter((t) => t.state === 'failed' && t.quarantined === true);
  const pending = inputs.tests.filter((t) => t.state === 'pending').length;
  const names = quarantined.slice(0, NAMED).map((t) => `"${clipText(t.fullName)}" (${clipText(t.file ?? '?')})`);
  const more = quarantined.length > NAMED ? ` and ${quarantined.length - NAMED} more` : '';
  const evidence = [
    ...(inputs.interrupted ?? []),
    ...(quarantined.length > 0
      ? [`failed under quarantine before the stop: ${names.join(', ')}${more}`]
      : ['no test failed before the stop']),
    ...(pending > 0 ? [`${pending} test${pending === 1 ? '' : 's'} left pending (not run)`] : []),
  ];
  const cause =
    quarantined.length > 0
      ? `${exit}: the run was interrupted after a quarantined test failed: Vitest's --bail counts a quarantined failure toward its limit and stopped the run`
      : `${exit}: the run was interrupted before its end (Vitest's --bail, or the run was cancelled)`;
  const action =
    quarantined.length > 0
      ? 'a quarantined test still runs and its failure still counts for --bail: raise --bail above the quarantined failures or drop it while tests are quarantined, or fix the quarantined test'
      : 'find what stopped the run: --bail after a failure the inputs do not show, or a cancel; pass --log to see it';
  return makeDraft(
    {
      class: 'infrastructure',
      project: null,
      fullName: null,
      file: null,
      cause,
      evidence,
      measured: false,
      action,
      rule: 'interrupted-run',
    },
    'interrupted-run',
    'silence',
  );
}
