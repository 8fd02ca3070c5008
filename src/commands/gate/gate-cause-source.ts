/**
 * What a gate cause reads from the test's source (io/source/source-files.ts): the signals in its own
 * body, and, for an order-dependent test, the earlier test of its file that writes module-level
 * state (core/cause/source-signals.ts `module-state`): the one it takes its state from.
 */
import type { SourceSignal } from '../../core/cause/cause.js';
import { readEarlierSignals, readSourceSignals } from '../../io/source/source-files.js';

type Place = { readonly file: string; readonly fullName: string; readonly line: number | null };

export const readCauseSignals = (root: string, test: Place): SourceSignal[] => readSourceSignals(root, test);

/** The nearest earlier test in the file whose body writes module-level state, with that line; null when none does. */
export function findStateWriter(
  root: string,
  test: Place,
): { readonly fullName: string; readonly signal: SourceSignal } | null {
  const earlier = readEarlierSignals(root, test);
  for (const e of [...earlier].reverse()) {
    const signal = e.signals.find((s) => s.classes.includes('order'));
    if (signal) return { fullName: e.fullName, signal };
  }
  return null;
}
