/** Fixture projects for the reporter's end-to-end tests: a flakeguard.yaml, test files, our reporter. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createFixture, vitestConfigWithReporter, type Fixture } from '../helpers/fixture.js';
import { formatDuration } from '../../src/core/duration.js';
import type { RunRecord } from '../../src/core/record/run-record.js';
import { listRunRecords, readRunRecord } from '../../src/io/record/run-record-file.js';

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
  const lines = stdout.replace(/\u001b\[[0-9;]*m/g, '').split('\n').filter((l) => l.trim() !== '');
  return lines.at(-1) ?? '';
}

export function records(fixture: Fixture): RunRecord[] {
  return listRunRecords(fixture.root, '.flakeguard/runs').map((f) => readRunRecord(f));
}

export function readText(fixture: Fixture, rel: string): string {
  return readFileSync(path.join(fixture.root, rel), 'utf8');
}

/**
 * The duration the run recorded for the test named `name`, as flakeguard prints it, regex-escaped:
 * output is checked against what the same run measured, never against a timing window.
 */
export function printedDuration(fixture: Fixture, name: string): string {
  const test = records(fixture).flatMap((r) => r.tests).find((t) => t.name === name);
  if (test?.durationMs == null) throw new Error(`no recorded duration for "${name}"`);
  return formatDuration(test.durationMs).replace('.', '\\.');
}

/** The same for a whole test file (`relPath` as the record names it). */
export function printedFileDuration(fixture: Fixture, relPath: string): string {
  const file = records(fixture).flatMap((r) => r.files).find((f) => f.file === relPath);
  if (file?.durationMs == null) throw new Error(`no recorded duration for ${relPath}`);
  return formatDuration(file.durationMs).replace('.', '\\.');
}
