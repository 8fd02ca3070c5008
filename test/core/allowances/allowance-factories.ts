/** An allowance entry for the allowance file edit tests: x.test.ts, 7 s, no fingerprint, no expiry. */
import type { NewAllowanceEntry } from '../../../src/core/allowances/allowance-serialize.js';

/** The allowance file the entries are written to. */
export const W = 'allowances/x.test.ts.yaml';

export const entry = (id: string, test: string, extra: Partial<NewAllowanceEntry> = {}): NewAllowanceEntry => ({
  id,
  fullName: test,
  file: 'x.test.ts',
  fingerprint: null,
  budget: { kind: 'single', value: 7000 },
  reason: 'slow disk',
  added: '2026-11-30',
  expires: null,
  ...extra,
});
