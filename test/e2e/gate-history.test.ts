/**
 * The gate with history: a changed test that the history store knows shows its past (runs, flaky
 * runs, durations) next to its tries; without a store the report has no history field.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { GateReportJson } from '../../src/core/gate/gate-report.js';
import { createFixture, type Fixture, vitestConfigWithReporter } from '../helpers/fixture.js';
import { ingestEarlierRuns, seedHistoryStore } from '../helpers/history-template.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { gateAtNoSlowdown } from './gate-fixtures.js';

const TEST = (body: string) => `import { expect, it } from 'vitest';

it('totals the cart', () => {
  ${body}
});
`;

const fixtures: Fixture[] = [];
afterAll(() => {
  for (const f of fixtures) f.remove();
});

describe('flakeguard gate with history', () => {
  it("shows the changed test's past from the store next to its tries", async () => {
    const fx = await createFixture({
      git: true,
      files: {
        'vitest.config.ts': vitestConfigWithReporter(),
        'flakeguard.yaml': 'budget:\n  test: 5s\nhistory: true\n',
        '.gitignore': '.flakeguard/\n',
        'test/cart.test.ts': TEST('expect(1 + 1).toBe(2);'),
      },
    });
    fixtures.push(fx);
    // A copy of the run's template store: the subject is the history the gate reads, not its creation.
    seedHistoryStore(fx.root);
    // Two earlier green runs of the test, as the reporter records them (the record factory), stored
    // with history ingest as the reporter stores them: the subject is what the gate reads back, not
    // the reporter's storing (test/e2e/history.test.ts keeps that with real runs).
    await ingestEarlierRuns(fx, [{ file: 'test/cart.test.ts', name: 'totals the cart', durationMs: 5 }]);
    await fx.git(['checkout', '-q', '-b', 'feature']);
    fx.write('test/cart.test.ts', TEST('expect(2 + 2).toBe(4);'));
    await fx.git(['commit', '-qam', 'change the test']);
    // At no slowdown: the subject is the history next to the tries, not the factor they ran at.
    const cheap = gateAtNoSlowdown(2, 0);
    const gate = await fx.flakeguard([...cheap, '--shard', '1/1', '--json']);
    expect(gate.exitCode, gate.output).toBe(0);
    const report = JSON.parse(gate.stdout) as GateReportJson;
    expect(report.tests).toHaveLength(1);
    expect(report.tests[0]?.history).toMatchObject({ runs: 2, failedRuns: 0, flakyRuns: 0, flakeRate: 0 });
    expect(report.tests[0]?.history?.durationMs?.median).toBeGreaterThanOrEqual(0);
    // The text the gate prints of that report: --merge formats it as the run does (in process, no second gate).
    fx.write('gate.json', gate.stdout);
    const text = await runCliInProcess(fx.root, ['gate', '--merge', 'gate.json']);
    expect(text.stdout).toMatch(/history: 2 runs, 0 flaky \(0%\), 0 failed; median \d/);
  });
});
