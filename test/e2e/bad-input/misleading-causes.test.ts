/**
 * Bad input catalogue: the true cause, not a misleading one (issue 48, finding 12). A `--bail 1` run
 * stopped by a quarantined test's failure is, in triage, an interrupted run with --bail named (the
 * record says interrupted), not "an exit code that no test explains"; a test that SIGSTOPs its
 * Vitest is named as that by the gate, with exit 2, not a time-budget shortfall; one that SIGSTOPs
 * its own worker fails its tries with that as the error. Needs `npm run build`.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GateReportJson } from '../../../src/core/gate/gate-report.js';
import { createFixture, type Fixture, vitestConfigWithReporter } from '../../helpers/fixture.js';
import { runCliInProcess } from '../../helpers/in-process-cli.js';
import { A_OLD, createGateFixture, gateAtNoSlowdown } from '../gate-fixtures.js';
import { expectBadInput } from './catalogue.js';

describe('triage of a --bail 1 run stopped by a quarantined failure', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await createFixture({
      git: true,
      files: {
        'vitest.config.ts': vitestConfigWithReporter(),
        'test/a.test.ts':
          "import { expect, it } from 'vitest';\nit('flaky', () => { expect(1).toBe(2); });\nit('later', () => {});\n",
      },
    });
    const added = await runCliInProcess(fx.root, [
      'quarantine',
      'add',
      ...['--file', 'test/a.test.ts', '--test', 'flaky', '--reason', 'flaky on CI', '--expires', '2099-01-01'],
    ]);
    expect(added.exitCode, added.output).toBe(0);
  });
  afterAll(() => fx.remove());

  it('names the interruption and --bail, with the quarantined test, not an unexplained exit code', async () => {
    const run = await fx.vitest(['--bail', '1']);
    expect(run.exitCode, run.output).toBe(1);
    const records = readdirSync(path.join(fx.root, '.flakeguard/runs')).filter((f) => f.endsWith('.json'));
    expect(records).toHaveLength(1);
    const triage = await runCliInProcess(fx.root, ['triage', '--record', `.flakeguard/runs/${records[0]}`]);
    expect(triage.exitCode, triage.output).toBe(1);
    expect(triage.stdout).toContain(
      "cause: exit code 1: the run was interrupted after a quarantined test failed: Vitest's --bail counts a quarantined failure toward its limit and stopped the run",
    );
    expect(triage.stdout).toContain('failed under quarantine before the stop: "flaky" (test/a.test.ts)');
    expect(triage.stdout).not.toContain('no test explains');
  });
});

describe('flakeguard gate on a test that stops a process with SIGSTOP', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await createGateFixture(
      {
        'test/a.test.ts': A_OLD,
        'test/stop.test.ts':
          "import { it } from 'vitest';\n\nit('stops its Vitest', () => {\n  process.kill(process.ppid, 'SIGSTOP');\n});\n",
        'test/self.test.ts':
          "import { it } from 'vitest';\n\nit('stops its worker', () => {\n  process.kill(process.pid, 'SIGSTOP');\n});\n",
      },
      { 'test/a.test.ts': A_OLD },
    );
  });
  afterAll(() => fx.remove());

  it('a stopped Vitest: exit 2 naming it and the test, not "run flakeguard gate --time-budget"', async () => {
    const copy = fx.copy();
    try {
      copy.write('test/self.test.ts', "import { it } from 'vitest';\nit('stops its worker', () => {});\n");
      const run = await expectBadInput(copy, gateAtNoSlowdown(2, 0, '--base', 'main', '--time-budget', '60s'), {
        exit: 2,
        names: [
          'was stopped by a signal (SIGSTOP',
          'during "stops its Vitest" (test/stop.test.ts)',
          'find what stops it',
        ],
      });
      expect(run.output).not.toContain('--time-budget 1');
    } finally {
      copy.remove();
    }
  });

  it('a stopped worker: each try failed with that as its error, the verdict failing', async () => {
    const copy = fx.copy();
    try {
      copy.write('test/stop.test.ts', "import { it } from 'vitest';\nit('stops its Vitest', () => {});\n");
      const run = await copy.flakeguard(gateAtNoSlowdown(2, 0, '--base', 'main', '--json', '--time-budget', '60s'));
      expect(run.exitCode, run.output).toBe(1);
      const report = JSON.parse(run.stdout) as GateReportJson;
      const t = report.tests.find((x) => x.fullName === 'stops its worker');
      expect(t?.verdict, t?.reason ?? run.output).toBe('failing');
      expect(t?.tries.map((x) => x.state)).toEqual(['failed', 'failed']);
      for (const x of t?.tries ?? []) expect(x.error).toMatch(/^its worker \(pid \d+\) was stopped by a signal/);
    } finally {
      copy.remove();
    }
  });
});
