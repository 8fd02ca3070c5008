/**
 * The budget part of a gate verdict: a test that passed every try is over, near or within its
 * limit, by its slowest passing try at the asked factor (core/gate/judged-duration.ts). Pure.
 */
import { formatDuration } from '../duration.js';
import type { Decision, TryFigures, Wording } from './gate-verdict-types.js';
import { describeBlocked } from './pacer.js';
import type { GateTry } from './runner-protocol.js';

const ms = formatDuration;

/**
 * The slowest passing try as a reason names it: "800ms" at its own duration, or, when it got more
 * than asked, "800ms (asked x2, got x3.2: ~500ms at x2)", its raw duration beside the judged one;
 * with "blocked 410ms of 1.2s: ..." when its test function spent much of its time blocked, which
 * its duration holds and its factor does not (core/gate/pacer.ts describeBlocked).
 */
function slowestText(f: TryFigures, asked: number | undefined): string {
  const slowest = f.tries
    .filter((t) => t.state === 'passed')
    .reduce<GateTry | null>(
      (a, t) => (a === null || (t.atAskedMs ?? t.durationMs) > (a.atAskedMs ?? a.durationMs) ? t : a),
      null,
    );
  if (slowest === null) return ms(0);
  const blocked = describeBlocked(slowest);
  if (slowest.atAskedMs === undefined || asked === undefined)
    return blocked === null ? ms(slowest.durationMs) : `${ms(slowest.durationMs)} (${blocked})`;
  return `${ms(slowest.durationMs)} (asked x${asked}, got x${slowest.slowdown}: ~${ms(slowest.atAskedMs)} at x${asked}${blocked === null ? '' : `; ${blocked}`})`;
}

/** Passed every try: over, near or within its limit, by its slowest passing try at the asked factor. */
export function decideBudget(f: TryFigures, { kind, under }: Wording, asked: number | undefined): Decision {
  const { limit, warnAt, maxPassingMs, passes, tryCount } = f;
  const slowest = slowestText(f, asked);
  const limitText = `${ms(limit.limitMs)} (${limit.source === 'allowance' ? `allowance ${limit.allowanceId ?? ''}`.trim() : limit.platformKey === 'all' ? 'budget' : `${limit.platformKey} budget`})`;
  if (maxPassingMs !== null && maxPassingMs > limit.limitMs) {
    return {
      verdict: 'over-budget',
      reason: `slowest passing try ${slowest}${under} is over its limit ${limitText}`,
    };
  }
  if (maxPassingMs !== null && maxPassingMs >= limit.limitMs * warnAt) {
    return {
      verdict: 'near-budget',
      reason: `slowest try ${slowest}${under} is ${Math.round((maxPassingMs / limit.limitMs) * 100)}% of its limit ${limitText}; add the proposed allowance to this change`,
    };
  }
  return {
    verdict: 'stable',
    reason: `${passes}/${tryCount}${kind} tries passed${under}, slowest ${slowest} of ${limitText}`,
  };
}
