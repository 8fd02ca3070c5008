/** Reads a JUnit XML file into observations (the parser is src/core/triage/triage-junit.ts). */
import { readFileSync } from 'node:fs';
import { excerpt } from '../../core/excerpt.js';
import { readJunitReport } from '../../core/triage/triage-junit.js';
import type { InputProblem, ObservedTest, ObservedUnhandled } from '../../core/triage/triage-types.js';
import { badInput, checkInputPath } from './triage-input-check.js';

export interface JunitRead {
  readonly tests: ObservedTest[];
  /** Vitest 5 writes the run's unhandled errors into the JUnit file too. */
  readonly unhandled: ObservedUnhandled[];
  readonly problem: InputProblem | null;
}

export function readJunitFile(file: string, input: string, mapFile: (p: string) => string): JunitRead {
  if (checkInputPath('junit', file, input) === 'missing') {
    return {
      tests: [],
      unhandled: [],
      problem: { input, kind: 'missing-report', cutAtByte: null, salvaged: 0, detail: `${input} does not exist` },
    };
  }
  // The size on disk, not the length of the decoded text: invalid UTF-8 decodes to 3-byte U+FFFD.
  const raw = readFileSync(file);
  const xml = raw.toString('utf8');
  if (xml.trim() !== '' && !/<testsuites?[\s>]/.test(xml))
    throw badInput(
      'junit',
      input,
      `has no <testsuites> or <testsuite> element (starts ${excerpt(xml.trim().slice(0, 40).replace(/\s+/g, ' '))})`,
    );
  const { tests, unhandled } = readJunitReport(xml, input, mapFile);
  const closed = /<\/testsuites>\s*$|<\/testsuite>\s*$/.test(xml);
  if (xml.trim() === '')
    return {
      tests,
      unhandled,
      problem: { input, kind: 'empty', cutAtByte: 0, salvaged: 0, detail: `${input} is empty` },
    };
  if (!closed) {
    const bytes = raw.length;
    return {
      tests,
      unhandled,
      problem: {
        input,
        kind: 'truncated',
        cutAtByte: bytes,
        salvaged: tests.length,
        detail: `${input}: no closing </testsuites> tag; cut off at byte ${bytes}; ${tests.length} complete testcases read`,
      },
    };
  }
  return { tests, unhandled, problem: null };
}
