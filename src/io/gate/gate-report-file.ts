/** Reads a `flakeguard gate --json` report back (for `gate --merge`; core/gate/gate-report-versions.ts upgrades a version 2), with errors that say what is wrong. */

import { FlakeguardError } from '../../core/errors.js';
import type { GateReport } from '../../core/gate/gate-report.js';
import { upgradeGateReport } from '../../core/gate/gate-report-versions.js';
import { RECORD_FILE_LIMIT_BYTES, readInputFile } from '../files/input-file.js';

export function readGateReport(file: string): GateReport {
  const text = readInputFile(file, 'a gate report (flakeguard gate --json)', RECORD_FILE_LIMIT_BYTES).toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const hint =
      text.trim() === ''
        ? 'it is empty'
        : `it is not JSON (${(error as Error).message}; ${text.length} bytes: cut off?)`;
    throw new FlakeguardError(
      'INPUT_UNREADABLE',
      `gate report ${file}: ${hint}; write it with flakeguard gate --json > ${file}`,
      { cause: error },
    );
  }
  return upgradeGateReport(parsed, file);
}
