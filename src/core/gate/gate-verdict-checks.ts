/**
 * The checks a verdict needs beyond the reference tries (core/gate/gate-evidence.ts): tries without
 * slowdown for a test that failed every reference try, alone tries for a new test that passed with
 * its file, and the tries without slowdown a flaky test's cause needs. Pure.
 */
import {
  ALONE_AGAIN_TRIES,
  ALONE_TRIES,
  DEFAULT_EVIDENCE_RULES,
  type EvidenceRules,
  type MissingCheck,
} from './gate-evidence.js';
import type { Decision, GateVerdict, GateVerdictInput, TryFigures, Wording } from './gate-verdict-types.js';
import type { GateTry } from './runner-protocol.js';

const failedOrHung = (t: GateTry): boolean => t.state === 'failed' || t.state === 'hung';

/** The verdict `inconclusive`: the checks it needed and why none could be named. */
export function inconclusive(what: string, missing: readonly MissingCheck[]): Decision {
  return { verdict: 'inconclusive', reason: `${what}; not checked, so no verdict`, missing };
}

/**
 * A new test that passed with its file, alone: null when it is not new or passed alone, or, with no
 * alone try, passed its file in reverse order (the tests written above it did not run before it:
 * it needs none of their state, core/gate/gate-checks.ts `reversed`).
 */
export function decideAlone(
  tries: readonly GateTry[] | null,
  f: TryFigures,
  rules: EvidenceRules,
  reversed: readonly GateTry[] | null = null,
): Decision | null {
  if (!rules.isNew && (tries ?? []).length === 0) return null;
  const { passes, tryCount } = f;
  const made = tries ?? [];
  const failed = made.filter(failedOrHung).length;
  if (made.length === 0 && reversed !== null && reversed.length > 0 && !reversed.some(failedOrHung)) return null;
  if (made.length === 0)
    return inconclusive(`passed ${passes}/${tryCount} with its file; its alone try (order dependence) was not made`, [
      { check: 'alone', needed: ALONE_TRIES, made: 0, for: 'verdict' },
    ]);
  if (failed === 0) return null;
  if (failed < made.length)
    return {
      verdict: 'flaky',
      reason: `passed ${passes}/${tryCount} with its file, but alone only ${made.length - failed}/${made.length}`,
    };
  const needed = ALONE_TRIES + ALONE_AGAIN_TRIES;
  if (made.length < needed)
    return inconclusive(
      `passed ${passes}/${tryCount} with its file, failed ${failed}/${made.length} alone: order-dependent or a flake`,
      [{ check: 'alone-again', needed, made: made.length, for: 'verdict' }],
    );
  return {
    verdict: 'order-dependent',
    reason: `passes with its file (${passes}/${tryCount}) but failed alone (0/${made.length}): it needs state from another test`,
  };
}

/**
 * Failed every reference try: load-sensitive when it passed without slowdown, failing when it failed
 * there too (or the reference ran without slowdown), inconclusive when those tries were not made.
 */
export function decideAllFailed(
  input: GateVerdictInput,
  f: TryFigures,
  { kind, under }: Wording,
  rules: EvidenceRules,
): Decision {
  const { tryCount, idle } = f;
  if (idle && idle.passes > 0) {
    return {
      verdict: 'flaky',
      reason: `load-sensitive: failed ${tryCount}/${tryCount} tries${under || ' under load'}, passed ${idle.passes}/${idle.tryCount} without slowdown`,
      loadSensitive: true,
    };
  }
  const hung = input.tries.filter((t) => t.state === 'hung').length;
  const how = hung === tryCount ? 'hung in' : hung > 0 ? `failed (${hung} hung)` : 'failed';
  if (input.loaded && (idle?.tryCount ?? 0) < rules.minTries) {
    const made = idle?.tryCount ?? 0;
    return inconclusive(
      `${how} ${tryCount}/${tryCount}${kind} tries${under}${made > 0 ? ` and ${made}/${made} without slowdown` : ''}: a real failure or a slowdown it cannot take`,
      [{ check: 'unthrottled', needed: rules.minTries, made, for: 'verdict', slowed: input.idleSlowed ?? 0 }],
    );
  }
  const without = idle ? `, and ${idle.tryCount - idle.passes}/${idle.tryCount} without slowdown` : '';
  return {
    verdict: 'failing',
    reason: `${how} ${tryCount}/${tryCount}${kind} tries${under}${without}: a real failure, not a flake`,
  };
}

/**
 * A flaky test's cause tells timing from randomness by its tries without slowdown
 * (core/gate/gate-cause.ts): when they were not made, the cause says so.
 */
export function causeNeeds(input: GateVerdictInput, f: TryFigures, verdict: GateVerdict): MissingCheck[] {
  const rules = input.rules ?? DEFAULT_EVIDENCE_RULES;
  if (verdict !== 'flaky' || !input.loaded || (!rules.cut && !input.idleSlowed)) return [];
  const made = f.idle?.tryCount ?? 0;
  if (f.passes === 0 || made >= rules.minTries) return [];
  return [{ check: 'unthrottled', needed: rules.minTries, made, for: 'cause', slowed: input.idleSlowed ?? 0 }];
}
