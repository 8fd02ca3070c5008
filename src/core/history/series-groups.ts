/**
 * The series' points per test and platform, in their order. The store sends each key's points
 * together, so a key costs one look-up, not one a point: the history report groups 24,000 points
 * (120 keys) twice. Pure.
 */
import type { SeriesPoint } from './history-platform.js';

export function seriesByKey(series: readonly SeriesPoint[]): Map<number, Map<string, SeriesPoint[]>> {
  const byTest = new Map<number, Map<string, SeriesPoint[]>>();
  let current: SeriesPoint[] | null = null;
  let test = Number.NaN;
  let platform = '';
  for (const s of series) {
    if (current === null || s.testId !== test || s.platform !== platform) {
      test = s.testId;
      platform = s.platform;
      let platforms = byTest.get(test);
      if (platforms === undefined) {
        platforms = new Map();
        byTest.set(test, platforms);
      }
      current = platforms.get(platform) ?? null;
      if (current === null) {
        current = [];
        platforms.set(platform, current);
      }
    }
    current.push(s);
  }
  return byTest;
}
