/**
 * Reads a Vitest JSON report. A report that does not parse (cut off by an artifact limit, a full
 * disk or a killed job) is salvaged: every complete entry before the cut is used, and the cut is
 * reported as an input problem with its byte offset.
 */
import { readFileSync, statSync } from 'node:fs';
import { salvageJson } from '../../core/triage/report-salvage.js';
import type { InputProblem } from '../../core/triage/triage-types.js';
import { type ReportObservations, readVitestJsonReport } from '../../core/triage/triage-vitest-json.js';
import { badInput, checkInputPath, describeJson, isVitestReportShape } from './triage-input-check.js';

export interface VitestJsonRead {
  readonly observations: ReportObservations | null;
  readonly problem: InputProblem | null;
}

export function readVitestJsonFile(file: string, input: string, mapFile: (p: string) => string): VitestJsonRead {
  if (checkInputPath('report', file, input) === 'missing') {
    return {
      observations: null,
      problem: { input, kind: 'missing-report', cutAtByte: null, salvaged: 0, detail: `${input} does not exist` },
    };
  }
  const size = statSync(file).size;
  const text = readFileSync(file, 'utf8');
  if (text.trim() === '')
    return {
      observations: null,
      problem: { input, kind: 'empty', cutAtByte: 0, salvaged: 0, detail: `${input} is empty (0 test entries)` },
    };
  try {
    const value: unknown = JSON.parse(text);
    if (!isVitestReportShape(value))
      throw badInput(
        'report',
        input,
        `is JSON but not a Vitest report (${describeJson(value)}; no testResults and numTotalTests)`,
      );
    return { observations: readVitestJsonReport(value, new Set(), input, mapFile), problem: null };
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return salvageReport(text, size, error, input, mapFile);
  }
}

/** A report that does not parse: its complete entries, and where it was cut (at the end) or went bad. */
function salvageReport(
  text: string,
  size: number,
  error: SyntaxError,
  input: string,
  mapFile: (p: string) => string,
): VitestJsonRead {
  const salvage = salvageJson(text);
  // A cut report still starts like one (`{"numTotalTestSuites":...`); anything else is another kind of file.
  const start = salvage.value as Record<string, unknown> | null;
  if (
    typeof start !== 'object' ||
    start === null ||
    Array.isArray(start) ||
    !['numTotalTestSuites', 'numTotalTests', 'testResults'].some((k) => k in start)
  ) {
    throw badInput('report', input, `is not a Vitest report (${error.message})`);
  }
  const observations = readVitestJsonReport(salvage.value, salvage.partial, input, mapFile);
  const reason = error.message;
  // Cut inside a value (a string, a number): JSON.parse fails at the very end of the text.
  const position = /position (\d+)/.exec(reason)?.[1];
  const failsAtEnd =
    /end of JSON input/.test(reason) || (position !== undefined && Number(position) >= text.trimEnd().length - 1);
  const atEnd = failsAtEnd || text.slice(salvage.stoppedAt).trim() === '' || salvage.stoppedAt >= text.length - 1;
  const cutAtByte = atEnd ? size : Buffer.byteLength(text.slice(0, salvage.stoppedAt));
  return {
    observations,
    problem: {
      input,
      kind: atEnd ? 'truncated' : 'corrupt',
      cutAtByte,
      salvaged: observations.entries,
      detail: `${input}: ${size} bytes, JSON.parse: ${reason}; ${atEnd ? `the text ends inside a value (cut off at byte ${cutAtByte})` : `invalid at byte ${cutAtByte}`}; ${observations.entries} complete test entries salvaged`,
    },
  };
}
