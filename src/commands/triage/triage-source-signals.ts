/**
 * Triage's flake causes with the signals in each flaky test's source (core/cause/source-signals.ts),
 * read from the checkout at the root: supporting evidence and the fix's line, never the class. A test
 * the checkout no longer has as the run named it gets none.
 */
import { withSignals } from '../../core/cause/cause.js';
import type { TriageReport } from '../../core/triage/triage-types.js';
import { readSourceSignals } from '../../io/source/source-files.js';

export function withFlakeSourceSignals(report: TriageReport, root: string): TriageReport {
  const findings = report.findings.map((f) => {
    if (!f.flakeCause || f.file === null || f.fullName === null) return f;
    const signals = readSourceSignals(root, { file: f.file, fullName: f.fullName, line: f.rerunTarget?.line ?? null });
    return { ...f, flakeCause: withSignals(f.flakeCause, signals, f.file) };
  });
  return { ...report, findings };
}
