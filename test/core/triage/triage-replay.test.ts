/** Triage's replay of a flake or escape (issue 46 item 4): the recorded seed's command, or why there is none. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeBudgetReport } from '../../../src/core/budget/budget-report.js';
import { buildRunRecord } from '../../../src/core/budget/run-record-build.js';
import { renderTriageHtml } from '../../../src/core/html/html-triage.js';
import { MAX_SEED } from '../../../src/core/replay/seeded-random.js';
import { formatTriage, toTriageJson } from '../../../src/core/triage/triage-format.js';
import { formatTriageMarkdown } from '../../../src/core/triage/triage-markdown.js';
import { readRecordObservations } from '../../../src/core/triage/triage-record.js';
import { NO_SEED_RECORDED } from '../../../src/core/triage/triage-replay.js';
import { schemaErrors } from '../../helpers/schema-check.js';
import { makeConfig, makeFile, makeInput, makeTest as makeRecordedTest } from '../budget/budget-factories.js';
import { SAMPLE_FACTS } from '../record/record-factories.js';
import { FILE, makeObservedTest, makeRerun, NAME, triageOf } from './triage-factories.js';

const COMMAND = `npx flakeguard replay "${FILE}" -t "${NAME}" --seed 2718281828`;

describe('triage: the replay of a flake or escape', () => {
  it('an escape whose record kept its failed seed prints the replay with it, in text, Markdown and JSON', () => {
    const r = triageOf({ tests: [makeObservedTest({ source: 'record', failedSeed: 2718281828 })] });
    expect(r.findings).toMatchObject([
      {
        class: 'escape',
        replay: {
          command: COMMAND,
          seed: 2718281828,
          note: 'the seed its failed attempt started with in the run',
        },
      },
    ]);
    expect(formatTriage(r)).toContain(`   replay: ${COMMAND} (the seed its failed attempt started with in the run)\n`);
    expect(formatTriageMarkdown(r)).toContain(`\`\`\`sh\n${COMMAND}\n\`\`\``);
    const json = toTriageJson(r);
    expect(json.findings[0]?.replay).toEqual({
      command: COMMAND,
      seed: 2718281828,
      note: 'the seed its failed attempt started with in the run',
    });
    expect(schemaErrors('triage', JSON.parse(JSON.stringify(json)))).toEqual([]);
    const html = renderTriageHtml(json);
    expect(html).toContain('<span class="label-row">replay</span><code>npx flakeguard replay');
    expect(html).toContain(
      '--seed 2718281828</code> <span class="dim">the seed its failed attempt started with in the run</span>',
    );
  });

  it('a flake measured by re-runs and a retry flake print the replay of the seed that failed', () => {
    const rerun = triageOf({
      tests: [makeObservedTest({ source: 'record', failedSeed: 5 })],
      reruns: [makeRerun(1, 5)],
      rerunCount: 5,
    });
    expect(rerun.findings).toMatchObject([{ class: 'flake', replay: { seed: 5 } }]);
    const retried = triageOf({
      tests: [
        makeObservedTest({ source: 'record', state: 'passed', errors: ['AssertionError: tails'], failedSeed: 6 }),
      ],
      exitCode: 0,
    });
    expect(retried.findings).toMatchObject([{ class: 'flake', rule: 'retry-pass', replay: { seed: 6 } }]);
  });

  it('without a recorded seed it says so where the replay would be, and never calls a rerun a replay', () => {
    const r = triageOf({ tests: [makeObservedTest()] });
    expect(r.findings[0]?.replay).toEqual({ command: null, seed: null, note: NO_SEED_RECORDED });
    const text = formatTriage(r);
    expect(text).toContain('   replay: no seed recorded (seed: true records them)\n');
    expect(text).not.toMatch(/replay: npx/);
    expect(formatTriageMarkdown(r)).toContain('**Replay:** no seed recorded (seed: true records them)');
    const html = renderTriageHtml(toTriageJson(r));
    expect(html).toContain('<span class="label-row">replay</span>no seed recorded (seed: true records them)');
    expect(html).not.toMatch(/<code>npx flakeguard replay/);
    expect(schemaErrors('triage', JSON.parse(JSON.stringify(toTriageJson(r))))).toEqual([]);
  });

  it('a file, a suite or a budget finding has no replay', () => {
    const file = triageOf({ tests: [makeObservedTest({ kind: 'file', fullName: '', line: null })] });
    expect(file.findings.every((f) => f.replay === undefined)).toBe(true);
    const suite = triageOf({ tests: [makeObservedTest({ kind: 'suite', fullName: 'grp', failedSeed: 3 })] });
    expect(suite.findings.every((f) => f.replay === undefined)).toBe(true);
  });

  it('a test of a named project replays in that project; a seed of another project is not its seed', () => {
    const r = triageOf({
      tests: [
        makeObservedTest({ source: 'record', project: 'node', failedSeed: 9 }),
        makeObservedTest({ source: 'record', project: 'jsdom' }),
      ],
    });
    const byProject = new Map(r.findings.map((f) => [f.project, f.replay]));
    expect(byProject.get('node')?.command).toBe(
      `${COMMAND.replace('2718281828', '9')}`.replace(' --seed', ' --project "node" --seed'),
    );
    expect(byProject.get('jsdom')).toEqual({ command: null, seed: null, note: NO_SEED_RECORDED });
  });

  it('property: a record’s failedSeed reaches triage’s replay command as written', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_SEED }), (seed) => {
        const report = computeBudgetReport(
          makeInput({
            tests: [
              makeRecordedTest({
                file: FILE,
                fullName: NAME,
                state: 'failed',
                errors: [{ message: 'tails', frame: null }],
                seeds: { runSeed: 1, seeds: [seed], failedSeed: seed },
              }),
            ],
            files: [makeFile({ file: FILE, state: 'failed' })],
            reason: 'failed',
          }),
        );
        const record = buildRunRecord(report, { ...SAMPLE_FACTS, runSeed: 1 }, makeConfig());
        const observed = readRecordObservations(record, 'r.json');
        const r = triageOf({ tests: observed.tests });
        const found = r.findings.find((f) => f.class === 'escape' && f.fullName === NAME);
        expect(found?.replay?.command).toBe(`npx flakeguard replay "${FILE}" -t "${NAME}" --seed ${seed}`);
      }),
      { numRuns: 30 },
    );
  });
});
