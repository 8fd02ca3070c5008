/**
 * The gate's order-dependence rows (gate-checks.ts holds the table they sit in): a new test's file
 * once in reverse order, then alone the tests that did not pass there, then alone twice more those
 * that failed alone (docs/gate.md "Tries", step 3). Pure.
 */
import { ALONE_CALL, conditionsOf, passedAll, REVERSED_CALL, wantsOrderCheck } from './check-rules.js';
import type { CheckRow } from './check-types.js';
import { ALONE_AGAIN_TRIES, ALONE_TRIES } from './gate-evidence.js';

export const ORDER_CHECKS: readonly CheckRow[] = [
  {
    id: 'reversed',
    kind: 'must-have',
    question:
      'does a new test that passed with its file pass when the tests written above it do not run before it (its file in reverse order)?',
    conditions: conditionsOf('none', 'fresh', { order: 'reversed' }),
    cost: 'one try of each file with such a test, its tests in reverse order, side by side',
    rounds: () => [
      {
        why: 'that passed with their file, their files once in reverse order (order dependence)',
        label: 'reversed',
        wants: wantsOrderCheck,
        call: { ...REVERSED_CALL, tries: 1, how: '' },
      },
    ],
  },
  {
    id: 'alone',
    kind: 'must-have',
    question:
      'does a new test that failed in its reversed file, or was not tried there, pass alone (else it needs an earlier test)?',
    conditions: conditionsOf('none', 'fresh', { alone: true }),
    cost: 'one try of its file per such test, side by side',
    rounds: () => [
      {
        why: 'once alone (order dependence)',
        label: 'alone',
        // A test its reversed file cleared needs no alone try: none of the tests above it ran before it there.
        wants: (t) => wantsOrderCheck(t) && !passedAll(t.tries('reversed')),
        call: { ...ALONE_CALL, tries: ALONE_TRIES, how: '' },
      },
    ],
  },
  {
    id: 'alone-again',
    kind: 'must-have',
    question: 'does a test that failed alone fail alone every time (order dependence) or only some times (a flake)?',
    conditions: conditionsOf('none', 'fresh', { alone: true }),
    cost: 'two more alone tries per test that failed alone',
    rounds: () => [
      {
        why: 'that failed alone, alone twice more',
        label: 'alone again',
        wants: (t) => t.tries('alone').some((x) => x.state !== 'passed' && x.state !== 'skipped'),
        call: { ...ALONE_CALL, tries: ALONE_AGAIN_TRIES, how: '' },
      },
    ],
  },
];
