import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatePlanJson } from '../../src/core/gate/gate-plan.js';
import type { GateReportJson } from '../../src/core/gate/gate-report.js';
import { isProcessAlive } from '../../src/io/load/load-workers.js';
import type { Fixture, RunResult } from '../helpers/fixture.js';
import { BASE_FILES, BRANCH_FILES, createGateFixture, gateAtNoSlowdown, LOAD_FILES } from './gate-fixtures.js';

const TWO_WORKERS =
  "import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { maxWorkers: 2 } });\n";

/** test/slow.test.ts on main: the same two tests, before they got slow. */
const QUICK =
  "import { it } from 'vitest';\nit('exports the report', () => {});\nit('imports the catalogue', () => {});\n";

// Needs `npm run build`. One gate run over every scenario; the assertions read its --json output.
// It runs at no slowdown (--slowdown 1), so the tests that hold get no tries at higher factors: the
// subjects are selection, verdicts, load and limits (the factor: gate-contention.test.ts). One gate,
// not three: the load-sensitive test and --write-allowances ride on the same run (a gate is a list
// child, the loaded tries, the tries without load, the alone tries and their repeat: five Vitest
// starts, and its load worker spins a core for as long as the loaded tries run). 3 tries each:
// enough for every verdict below (more tries up to --max-tries while the budget lasts:
// test/io/vitest/vitest-tries.test.ts; the load-sensitive test's cause: gate-cause.test.ts). Two
// test workers, not Vitest's one on 2 cores: the slow file's sleeps overlap other tries, so the
// loaded tries, and the load worker's spinning, end sooner.
describe('flakeguard gate on a branch with new, changed, renamed and moved tests', () => {
  let fixture: Fixture;
  let run: RunResult;
  let report: GateReportJson;
  const byName = (name: string) => report.tests.find((t) => t.fullName === name || t.fullName.endsWith(` > ${name}`));

  beforeAll(async () => {
    // The two slow tests exist on main, quick: the branch changes them (slow), so the gate spends no
    // alone tries on them ('shows the user' and 'totals the cart' get theirs).
    fixture = await createGateFixture(
      { ...BRANCH_FILES, ...LOAD_FILES },
      { ...BASE_FILES, 'test/slow.test.ts': QUICK, 'vitest.config.ts': TWO_WORKERS },
    );
    run = await fixture.flakeguard(gateAtNoSlowdown(3, 1, '--json', '--markdown', 'gate.md', '--write-allowances'));
    report = JSON.parse(run.stdout) as GateReportJson;
  });
  afterAll(() => fixture.remove());

  it('exits 1 with a versioned JSON report against the merge base', async () => {
    expect(run.exitCode, run.stderr).toBe(1);
    expect(report).toMatchObject({
      format: 'flakeguard-gate-report',
      version: 7,
      verdict: 'fail',
      tries: 3,
      maxTries: 3,
      base: (await fixture.git(['merge-base', 'main', 'HEAD'])).trim(),
    });
  });

  it('selects new, changed, renamed and moved tests and leaves unchanged ones out', () => {
    const selection = Object.fromEntries(report.tests.map((t) => [`${t.file} > ${t.fullName}`, t.selection]));
    expect(selection).toEqual({
      'test/cart.test.ts > cart > adds numbers': 'renamed',
      'test/cart.test.ts > cart > edited': 'changed',
      'test/cart.test.ts > cart > totals the cart': 'new',
      'test/cart.test.ts > cart > confirms the payment': 'new',
      'test/cart.test.ts > cart > rejects an expired coupon': 'new',
      'test/new-home.test.ts > travels': 'moved',
      'test/render.test.ts > renders the frame in time': 'new',
      'test/session.test.ts > shows the user': 'new',
      'test/slow.test.ts > exports the report': 'changed',
      'test/slow.test.ts > imports the catalogue': 'changed',
    });
    expect(byName('adds numbers')?.previous).toEqual({ file: 'test/cart.test.ts', fullName: 'cart > to be renamed' });
    expect(byName('travels')?.previous).toEqual({ file: 'test/old.test.ts', fullName: 'travels' });
  });

  it('gives each test its verdict with passes, tries and durations', () => {
    const verdicts = Object.fromEntries(report.tests.map((t) => [t.fullName, t.verdict]));
    expect(verdicts).toEqual({
      'cart > adds numbers': 'stable',
      'cart > edited': 'stable',
      'cart > totals the cart': 'stable',
      'cart > confirms the payment': 'flaky',
      'cart > rejects an expired coupon': 'failing',
      travels: 'stable',
      'renders the frame in time': 'flaky',
      'shows the user': 'order-dependent',
      'exports the report': 'over-budget',
      'imports the catalogue': 'near-budget',
    });
    // Its counter fails try 2 of the first wave's 3: flaky at once, no more tries.
    expect(byName('confirms the payment')).toMatchObject({ passes: 2, tryCount: 3, loadSensitive: false });
    expect(byName('confirms the payment')?.tries).toHaveLength(3);
    expect(byName('rejects an expired coupon')).toMatchObject({ passes: 0, idle: { passes: 0, tryCount: 3 } });
    // Its file in reverse order first: it failed there (the test it needs did not run before it),
    // so it got its alone tries; a new test that passed reversed needs none.
    expect(byName('shows the user')).toMatchObject({
      passes: 3,
      reversed: { passes: 0, tryCount: 1 },
      alone: { passes: 0, tryCount: 3 },
    });
    expect(byName('totals the cart')).toMatchObject({ reversed: { passes: 1, tryCount: 1 }, alone: null });
    const stable = byName('totals the cart');
    expect(stable).toMatchObject({
      passes: 3,
      tryCount: 3,
      failureRateText: '3/3 passed: failure rate below 63.2% at 95% confidence',
    });
    expect(stable?.tries.every((t) => t.cold)).toBe(true);
    expect(byName('imports the catalogue')?.maxMs).toBeGreaterThanOrEqual(250);
    expect(byName('exports the report')?.maxMs).toBeGreaterThan(800);
  });

  it('calls a test that fails under CPU load and passes without it flaky (load-sensitive), with both counts', () => {
    // The fixture test fails exactly while the gate's load workers run (it reads the gate's processes),
    // so the verdict does not depend on the core count or on what else the machine runs.
    const t = byName('renders the frame in time');
    expect(t).toMatchObject({ verdict: 'flaky', loadSensitive: true, passes: 0, tryCount: 3 });
    expect(t?.idle?.passes).toBeGreaterThan(0);
    expect(t?.reason).toMatch(/^load-sensitive: failed 3\/3 tries under load, passed [1-3]\/3 without slowdown$/);
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

  it('--write-allowances writes the proposals next to the test; then the near- and over-budget tests pass the gate', async () => {
    expect(report.proposals.map((p) => [p.fullName, p.storeFile, p.written])).toEqual([
      ['exports the report', 'allowances/test/slow.test.ts.yaml', true],
      ['imports the catalogue', 'allowances/test/slow.test.ts.yaml', true],
    ]);
    expect(report.proposals[1]?.yaml).toMatch(/budget: \{ linux: \d+(\.\d+)?m?s \}/);
    const store = readFileSync(path.join(fixture.root, 'allowances/test/slow.test.ts.yaml'), 'utf8');
    expect(store).toContain('test: exports the report');
    expect(store).toContain('test: imports the catalogue');
    // The written allowances now give each test a limit its slowest try sits under warnAt of (so
    // the same tries judge stable): gate --plan reads the limits as the gate would, runs nothing.
    const again = await fixture.flakeguard(['gate', '--plan']);
    expect(again.exitCode, again.stderr).toBe(0);
    const plan = JSON.parse(again.stdout) as GatePlanJson;
    const allowed = plan.tests.filter((t) => t.limitSource === 'allowance');
    expect(allowed.map((t) => t.fullName)).toEqual(['exports the report', 'imports the catalogue']);
    for (const t of allowed) expect(byName(t.fullName)?.maxMs, t.fullName).toBeLessThan(t.limitMs * report.warnAt);
  });
});
