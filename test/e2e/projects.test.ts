/**
 * One test file in two Vitest projects (issue 37): `rounds the total` fails only in project `edge`
 * (each project sets its own env), `adds` passes in both. The reporter, the run record, triage (from
 * the record, from the CI log, from both), `history` and a quarantine keep the two apart, and every
 * line that names the test names its project. Real Vitest 4 with the built reporter; the CLI runs in
 * this process (test/helpers/in-process-cli.ts). The gate's side (each project tried and reported
 * apart) is test/e2e/gate-setup.test.ts's "projects" case.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/core/record/run-record.js';
import { createFixture, type Fixture, REPORTER_BUILT, type RunResult } from '../helpers/fixture.js';
import { seedHistoryStore } from '../helpers/history-template.js';
import { flakeguardInProcess } from '../helpers/in-process-cli.js';

const CONFIG = `import { defineConfig } from 'vitest/config';
const project = (name) => ({ test: { name, include: ['test/**/*.test.ts'], env: { FLAVOUR: name } } });
export default defineConfig({
  test: { reporters: ['default', ${JSON.stringify(REPORTER_BUILT)}], projects: [project('node'), project('edge')] },
});
`;

const CART = `import { expect, it } from 'vitest';
it('adds', () => {
  expect(1 + 1).toBe(2);
});
it('rounds the total', () => {
  expect(process.env.FLAVOUR, 'the edge runtime rounds half-cents down').toBe('node');
});
`;

const NAME = 'rounds the total';
const ENV = { FLAKEGUARD_BRANCH: 'main' };

interface TriageJson {
  readonly version: number;
  readonly findings: readonly { class: string; project: string | null; file: string | null; fullName: string | null }[];
}

const findingsOf = (run: RunResult): [string, string | null, string | null, string | null][] =>
  (JSON.parse(run.stdout) as TriageJson).findings.map((f) => [f.class, f.project, f.file, f.fullName]);

describe('two Vitest projects running one test file', () => {
  let fx: Fixture;
  const runs: RunResult[] = [];
  beforeAll(async () => {
    fx = await createFixture({
      git: true,
      files: { 'flakeguard.yaml': 'history: true\n', 'vitest.config.ts': CONFIG, 'test/cart.test.ts': CART },
    });
    seedHistoryStore(fx.root);
    for (let i = 0; i < 2; i += 1) runs.push(await fx.vitest([], ENV));
  });
  afterAll(() => fx?.remove());

  it('the reporter fails the run on the one project that failed, naming it; the record keeps both', () => {
    const [run] = runs;
    expect(run?.exitCode, run?.output).toBe(1);
    expect(run?.output).toMatch(/failed {2}test\/cart\.test\.ts:5 \[edge\] {2}rounds the total {2}AssertionError/);
    expect(run?.output).not.toMatch(/failed {2}test\/cart\.test\.ts:5 \[node\]/);
    const folder = path.join(fx.root, '.flakeguard/runs');
    const file = readdirSync(folder).find((f) => f.endsWith('.json')) as string;
    const record = JSON.parse(readFileSync(path.join(folder, file), 'utf8')) as RunRecord;
    expect(record.version).toBe(2);
    expect(
      record.tests.map((t) => `${t.project} ${t.fullName} ${t.state}`).sort(),
      'one entry per project, the full name as fullName',
    ).toEqual(['edge adds passed', `edge ${NAME} failed`, 'node adds passed', `node ${NAME} passed`]);
  });

  it('triage names the failure in its project, from the record, from the CI log, and from both', async () => {
    const fromRecords = await flakeguardInProcess(fx, ['triage', '--json', '--no-history']);
    expect(fromRecords.exitCode, fromRecords.output).toBe(1);
    const edge = ['escape', 'edge', 'test/cart.test.ts', NAME];
    expect(findingsOf(fromRecords)).toEqual([edge]);
    const text = await flakeguardInProcess(fx, ['triage', '--no-history']);
    expect(text.stdout).toContain(`escape (inferred) test/cart.test.ts [edge] > ${NAME}`);
    expect(text.stdout).toMatch(new RegExp(`\\.json: test "${NAME}" \\[edge\\] failed`));
    expect(text.stdout).not.toContain('[node]');
    // Vitest's log names the project (FAIL |edge| ...): the log alone and the log beside the record agree.
    writeFileSync(path.join(fx.root, 'ci.log'), runs[1]?.output ?? '');
    const fromLog = await flakeguardInProcess(fx, ['triage', '--json', '--log', 'ci.log', '--exit-code', '1']);
    expect(findingsOf(fromLog), fromLog.output).toEqual([edge]);
    const records = path.join(fx.root, '.flakeguard/runs');
    const newest = readdirSync(records)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .at(-1) as string;
    const both = await flakeguardInProcess(fx, [
      'triage',
      '--json',
      '--no-history',
      '--record',
      path.join('.flakeguard/runs', newest),
      '--log',
      'ci.log',
    ]);
    expect(findingsOf(both), both.output).toEqual([edge]);
  });

  it('triage --rerun re-runs the failure in its own project: every re-run fails, a measured escape', async () => {
    // In both projects the node pass would read as a flake; --project edge keeps the re-run to edge.
    const rerun = await flakeguardInProcess(fx, ['triage', '--json', '--no-history', '--rerun', '2']);
    expect(rerun.exitCode, rerun.output).toBe(1);
    const [finding] = (JSON.parse(rerun.stdout) as TriageJson & { findings: { measured: boolean }[] }).findings;
    expect(finding, rerun.output).toMatchObject({ class: 'escape', project: 'edge', fullName: NAME, measured: true });
    expect(rerun.stderr).toContain(`re-running test/cart.test.ts [edge] > ${NAME} (1/2)`);
  });

  it('history keeps a row per project: failed in every edge run, never in node', async () => {
    const json = await flakeguardInProcess(fx, ['history', '--json', '--branch', 'main', '--test', NAME]);
    expect(json.exitCode, json.output).toBe(0);
    const report = JSON.parse(json.stdout) as {
      version: number;
      tests: { project: string; fullName: string; runs: number; failedRuns: number }[];
    };
    expect(report.version).toBe(2);
    expect(report.tests.map((t) => [t.project, t.fullName, t.runs, t.failedRuns]).sort()).toEqual([
      ['edge', NAME, 2, 2],
      ['node', NAME, 2, 0],
    ]);
    const text = await flakeguardInProcess(fx, ['history', '--branch', 'main', '--test', NAME]);
    expect(text.stdout).toContain(`test/cart.test.ts [edge]  ${NAME}`);
    expect(text.stdout).toContain(`test/cart.test.ts [node]  ${NAME}`);
  });

  it('a quarantine names no project: one entry, and the reporter excuses the edge failure, naming edge', async () => {
    const add = await flakeguardInProcess(fx, [
      'quarantine',
      'add',
      '--file',
      'test/cart.test.ts',
      '--test',
      NAME,
      '--reason',
      'edge rounding, owner web team',
    ]);
    expect(add.exitCode, add.output).toBe(0);
    const list = await flakeguardInProcess(fx, ['quarantine', 'list', '--json']);
    const listed = JSON.parse(list.stdout) as { version: number; quarantines: { fullName: string; state: string }[] };
    expect(listed.version).toBe(2);
    expect(listed.quarantines.map((q) => [q.fullName, q.state])).toEqual([[NAME, 'applies']]);
    const run = await fx.vitest([], ENV);
    expect(run.exitCode, run.output).toBe(0);
    expect(run.output).toMatch(/quarantined {2}test\/cart\.test\.ts:5 \[edge\] {2}rounds the total {2}failed under/);
    expect(run.output).not.toMatch(/quarantined {2}test\/cart\.test\.ts:5 \[node\]/);
  });
});
