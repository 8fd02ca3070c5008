/** Reads a `flakeguard gate --json` report back (for `gate --merge`), with errors that say what is wrong. */
import { readFileSync } from 'node:fs';
import { FlakeguardError } from '../../core/errors.js';
import { GATE_REPORT_VERSION, type GateReport } from '../../core/gate/gate-report.js';

export function readGateReport(file: string): GateReport {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new FlakeguardError('INPUT_UNREADABLE', `cannot read gate report ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const hint = text.trim() === '' ? 'it is empty' : `it is not JSON (${(error as Error).message}; ${text.length} bytes: cut off?)`;
    throw new FlakeguardError('INPUT_UNREADABLE', `gate report ${file}: ${hint}; write it with flakeguard gate --json > ${file}`, { cause: error });
  }
  const report = parsed as Partial<GateReport> | null;
  if (report === null || typeof report !== 'object' || report.version !== GATE_REPORT_VERSION || !Array.isArray(report.tests)) {
    throw new FlakeguardError('INPUT_UNREADABLE', `gate report ${file} is not a flakeguard gate report of version ${GATE_REPORT_VERSION} (expected {"version":1,"tests":[...]})`);
  }
  return report as GateReport;
}
