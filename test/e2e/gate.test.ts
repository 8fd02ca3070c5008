import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatePlanJson } from '../../src/core/gate/gate-plan.js';
import type { GateReportJson } from '../../src/core/gate/gate-report.js';
import { isProcessAlive } from '../../src/io/load/load-workers.js';
import { createFixture, type Fixture, type RunResult } from '../helpers/fixture.js';
import { BRANCH_FILES, CONFIG, createGateFixture, gateAtNoSlowdown, LOAD_FILES } from './gate-fixtures.js';

// Needs `npm run build`. One gate run over every scenario; the assertions read its --json output.
// Every gate here runs at no slowdown (--slowdown 1), so the tests that hold get no tries at higher
// factors: the subjects are selection, verdicts, load and limits (the factor: gate-contention.test.ts).
describe('flakeguard gate on a branch with new, changed, renamed and moved tests', () => {
  let fixture: Fixture;
  let run: RunResult;
  let report: GateReportJson;
  const byName = (name: string) => report.tests.find((t) => t.name === name || t.name.endsWith(` > ${name}`));

  beforeAll(async () => {
    fixture = await createGateFixture();
    run = await fixture.flakeguard([
      'gate',
      '--slowdown',
      '1',
      '--load',
      '1',
      '--max-tries',
      '6',
      '--json',
      '--markdown',
      'gate.md',
    ]);
    report = JSON.parse(run.stdout) as GateReportJson;
  });
  afterAll(() => fixture.remove());

  it('exits 1 with a versioned JSON report against the merge base', async () => {
    expect(run.exitCode, run.stderr).toBe(1);
    expect(report).toMatchObject({
      version: 4,
      verdict: 'fail',
      tries: 5,
      base: (await fixture.git(['merge-base', 'main', 'HEAD'])).trim(),
    });
  });

  it('selects new, changed, renamed and moved tests and leaves unchanged ones out', () => {
    const selection = Object.fromEntries(report.tests.map((t) => [`${t.file} > ${t.name}`, t.selection]));
    expect(selection).toEqual({
      'test/cart.test.ts > cart > adds numbers': 'renamed',
      'test/cart.test.ts > cart > edited': 'changed',
      'test/cart.test.ts > cart > totals the cart': 'new',
      'test/cart.test.ts > cart > confirms the payment': 'new',
      'test/cart.test.ts > cart > rejects an expired coupon': 'new',
      'test/new-home.test.ts > travels': 'moved',
      'test/session.test.ts > shows the user': 'new',
      'test/slow.test.ts > exports the report': 'new',
      'test/slow.test.ts > imports the catalogue': 'new',
    });
    expect(byName('adds numbers')?.previous).toEqual({ file: 'test/cart.test.ts', name: 'cart > to be renamed' });
    expect(byName('travels')?.previous).toEqual({ file: 'test/old.test.ts', name: 'travels' });
  });

  it('gives each test its verdict with passes, tries and durations', () => {
    const verdicts = Object.fromEntries(report.tests.map((t) => [t.name, t.verdict]));
    expect(verdicts).toEqual({
      'cart > adds numbers': 'stable',
      'cart > edited': 'stable',
      'cart > totals the cart': 'stable',
      'cart > confirms the payment': 'flaky',
      'cart > rejects an expired coupon': 'failing',
      travels: 'stable',
      'shows the user': 'order-dependent',
      'exports the report': 'over-budget',
      'imports the catalogue': 'near-budget',
    });
    expect(byName('confirms the payment')).toMatchObject({ passes: 3, tryCount: 5, loadSensitive: false });
    expect(byName('confirms the payment')?.tries).toHaveLength(5);
    expect(byName('rejects an expired coupon')).toMatchObject({ passes: 0, idle: { passes: 0, tryCount: 5 } });
    expect(byName('shows the user')).toMatchObject({ passes: 6, alone: { passes: 0, tryCount: 3 } });
    const stable = byName('totals the cart');
    expect(stable).toMatchObject({
      passes: 6,
      tryCount: 6,
      failureRateText: '6/6 passed: failure rate below 39.4% at 95% confidence',
    });
    expect(stable?.tries.every((t) => t.cold)).toBe(true);
    expect(byName('imports the catalogue')?.maxMs).toBeGreaterThanOrEqual(250);
    expect(byName('exports the report')?.maxMs).toBeGreaterThan(800);
  });

  it('proposes allowances for the near- and over-budget tests', () => {
    expect(report.proposals.map((p) => [p.name, p.storeFile, p.written])).toEqual([
      ['exports the report', 'allowances/test/slow.test.ts.yaml', false],
      ['imports the catalogue', 'allowances/test/slow.test.ts.yaml', false],
    ]);
    expect(report.proposals[1]?.yaml).toMatch(/budget: \{ linux: \d+(\.\d+)?m?s \}/);
  });

  it('reports the load it made and leaves no worker behind', () => {
    expect(report.load.workers).toBe(1);
    expect(report.load.pids).toHaveLength(1);
    expect(report.load.pids.filter(isProcessAlive)).toEqual([]);
    expect(report.load.testsCpuShare).toBeGreaterThan(0);
  });

  it('writes the Markdown summary', () => {
    const md = readFileSync(path.join(fixture.root, 'gate.md'), 'utf8');
    expect(md).toContain('### flakeguard gate: failed');
    expect(md).toContain('| flaky | `test/cart.test.ts:');
  });
});

describe('flakeguard gate on a test that passes idle and fails under CPU load', () => {
  let fixture: Fixture;
  beforeAll(async () => {
    fixture = await createGateFixture(LOAD_FILES, {
      'test/keep.test.ts': "import { it } from 'vitest';\nit('keeps', () => {});\n",
    });
  });
  afterAll(() => fixture.remove());

  it('is flaky (load-sensitive) with both counts; the load workers are gone', async () => {
    // The fixture test fails exactly while the gate's load workers run (it reads the gate's processes),
    // so the verdict does not depend on the core count or on what else the machine runs. Three tries
    // under load and three without show both counts.
    const workers = 1;
    const r = await fixture.flakeguard(gateAtNoSlowdown(3, workers, '--json'));
    expect(r.exitCode, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout) as GateReportJson;
    const t = report.tests[0];
    expect(t).toMatchObject({
      name: 'renders the frame in time',
      selection: 'new',
      verdict: 'flaky',
      loadSensitive: true,
      passes: 0,
      tryCount: 3,
    });
    expect(t?.idle?.passes).toBeGreaterThan(0);
    expect(t?.reason).toMatch(/^load-sensitive: failed 3\/3 tries under load, passed [1-3]\/3 without load$/);
    expect(report.load.pids).toHaveLength(workers);
    expect(report.load.pids.filter(isProcessAlive)).toEqual([]);
  });
});

/** test/slow.test.ts on main: the same two tests, before they got slow. */
const QUICK =
  "import { it } from 'vitest';\nit('exports the report', () => {});\nit('imports the catalogue', () => {});\n";

describe('flakeguard gate --write-allowances', () => {
  let fixture: Fixture;
  beforeAll(async () => {
    // The two tests exist on main, quick: the branch changes them (slow), so the gate spends no alone
    // tries on them (order dependence is the first describe's subject).
    fixture = await createFixture({ git: true, files: { 'flakeguard.yaml': CONFIG, 'test/slow.test.ts': QUICK } });
    await fixture.git(['checkout', '-q', '-b', 'feature']);
    fixture.write('test/slow.test.ts', BRANCH_FILES['test/slow.test.ts'] ?? '');
    await fixture.git(['add', '-A']);
    await fixture.git(['commit', '-qm', 'slow tests']);
  });
  afterAll(() => fixture.remove());

  it('writes the proposals next to the test; then the near- and over-budget tests pass the gate', async () => {
    // One try each is enough here: the point is the limit, not the flakiness.
    const written = await fixture.flakeguard(gateAtNoSlowdown(1, 0, '--json', '--write-allowances'));
    expect(written.exitCode).toBe(1);
    const first = JSON.parse(written.stdout) as GateReportJson;
    expect(first.proposals.map((p) => [p.name, p.written])).toEqual([
      ['exports the report', true],
      ['imports the catalogue', true],
    ]);
    const store = readFileSync(path.join(fixture.root, 'allowances/test/slow.test.ts.yaml'), 'utf8');
    expect(store).toContain('test: exports the report');
    expect(store).toContain('test: imports the catalogue');
    // The written allowances now give each test a limit its slowest try sits under warnAt of (so
    // the same tries judge stable): gate --plan reads the limits as the gate would, runs nothing.
    const again = await fixture.flakeguard(['gate', '--plan']);
    expect(again.exitCode, again.stderr).toBe(0);
    const plan = JSON.parse(again.stdout) as GatePlanJson;
    expect(plan.tests.map((t) => [t.name, t.limitSource])).toEqual([
      ['exports the report', 'allowance'],
      ['imports the catalogue', 'allowance'],
    ]);
    for (const t of first.tests) {
      const limit = plan.tests.find((p) => p.name === t.name)?.limitMs ?? 0;
      expect(t.maxMs, t.name).toBeLessThan(limit * first.warnAt);
    }
  });
});
