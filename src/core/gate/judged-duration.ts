/**
 * A try's duration at the factor it was asked to run at. When the machine starved a try (it got
 * x3.2 where x2 was asked), its duration says how long the test takes at x3.2, not at x2: the part
 * of its wall time beyond the asked factor is CPU work slowed more than asked. The try's CPU c ran
 * at factor g (its measured `slowdown`: (cpu + wait + stopped) / cpu), so it took c x g of wall
 * time, and would have taken c x a at the asked factor a:
 *
 *   judged = duration - c x (g - a)
 *
 * bounded below by duration x a / g (as if the whole try, waits and sleeps included, had been CPU
 * work: more cannot be taken off) and above by the duration (a try is never made longer). A try
 * within ADJUST_ABOVE of the asked factor, or without a measured factor, is taken as it is: the
 * measured factor has a few percent of noise of its own. Pure.
 */
import type { GateTry } from './runner-protocol.js';

/** A try that got more than this times the asked factor is judged at a duration adjusted to the asked one. */
export const ADJUST_ABOVE = 1.1;

/** The try's duration at the asked factor (ms): its own when it got at most ADJUST_ABOVE x asked. */
export function durationAtAsked(t: Pick<GateTry, 'durationMs' | 'cpuMs' | 'slowdown'>, asked: number): number {
  const got = t.slowdown;
  if (got === null || got === undefined || t.cpuMs === undefined || !(got > asked * ADJUST_ABOVE)) return t.durationMs;
  const adjusted = t.durationMs - Math.max(0, t.cpuMs) * (got - asked);
  return Math.min(t.durationMs, Math.max(adjusted, (t.durationMs * asked) / got));
}
