/** Fixture projects for the reporter's end-to-end tests: a flakeguard.yaml, test files, our reporter. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { formatDuration } from '../../src/core/duration.js';
import type { RunRecord } from '../../src/core/record/run-record.js';
import { listRunRecords, readRunRecord } from '../../src/io/record/run-record-file.js';
import { createFixture, type Fixture, vitestConfigWithReporter } from '../helpers/fixture.js';

export const PLATFORM = process.platform;

/** A test file body; `sleep(ms)` is in scope. */
export function testFile(body: string): string {
  return `import { describe, expect, test } from 'vitest';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
${body}
`;
}

export async function reporterProject(
  files: Record<string, string>,
  options: { yaml?: string; vitestExtra?: string; git?: boolean } = {},
): Promise<Fixture> {
  return createFixture({
    files: {
      'vitest.config.ts': vitestConfigWithReporter(options.vitestExtra ?? ''),
      ...(options.yaml === undefined ? {} : { 'flakeguard.yaml': options.yaml }),
      ...files,
    },
    git: options.git ?? false,
  });
}

/** The last non-empty line of a run's stdout (flakeguard's verdict line). */
export function lastLine(stdout: string): string {
  const lines = stdout
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .filter((l) => l.trim() !== '');
  return lines.at(-1) ?? '';
}

export function records(fixture: Fixture): RunRecord[] {
  return listRunRecords(fixture.root, '.flakeguard/runs').map((f) => readRunRecord(f));
}

export function readText(fixture: Fixture, rel: string): string {
  return readFileSync(path.join(fixture.root, rel), 'utf8');
}

/** The record rounds durations to 0.01 ms (run-record-build.ts), so a raw one is within half of that. */
const RECORD_HALF_STEP_MS = 0.005 + 1e-9;

/**
 * What flakeguard may have printed for a duration the record holds, as a regex group. The record
 * keeps durations rounded to 0.01 ms while the reporter prints the raw measure, so the printed value
 * is the format of something within 0.005 ms of the record: 300.5 in the record is "300ms" or
 * "301ms" on screen (the raw 300.496 or 300.503). Both neighbours are accepted, nothing wider:
 * output is checked against what the same run measured, never against a timing window.
 */
export function printedForms(recordedMs: number): string {
  const forms = new Set([
    formatDuration(recordedMs - RECORD_HALF_STEP_MS),
    formatDuration(recordedMs + RECORD_HALF_STEP_MS),
  ]);
  return `(?:${[...forms].map((f) => f.replace('.', '\\.')).join('|')})`;
}

/** What flakeguard printed for the test named `name`, from the duration the run recorded (see printedForms). */
export function printedDuration(fixture: Fixture, name: string): string {
  const test = records(fixture)
    .flatMap((r) => r.tests)
    .find((t) => t.fullName === name);
  if (test?.durationMs == null) throw new Error(`no recorded duration for "${name}"`);
  return printedForms(test.durationMs);
}

/** The same for a whole test file (`relPath` as the record names it). */
export function printedFileDuration(fixture: Fixture, relPath: string): string {
  const file = records(fixture)
    .flatMap((r) => r.files)
    .find((f) => f.file === relPath);
  if (file?.durationMs == null) throw new Error(`no recorded duration for ${relPath}`);
  return printedForms(file.durationMs);
}
