import { afterAll, describe, expect, it } from 'vitest';
import type { GatePlanJson } from '../../src/core/gate/gate-plan.js';
import type { GateReportJson } from '../../src/core/gate/gate-report.js';
import type { Fixture } from '../helpers/fixture.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { schemaErrors } from '../helpers/schema-check.js';
import { createGateFixture, gateAtNoSlowdown, SETUP_FIXTURES } from './gate-fixtures.js';

// Needs `npm run build`. The project's Vitest as configured: which files are tests, in which
// projects, from where Vitest is installed, and which tests import a changed module. The subject
// is which tests would run, so `gate --plan` answers (the same selection, no test runs), in this
// process (test/helpers/in-process-cli.ts: its Vitest listing child still starts; a spawned
// `gate --plan` is in gate.test.ts); one whole gate, at no slowdown (--slowdown 1), shows a file in
// two projects tried and reported in each.
const fixtures: Fixture[] = [];
afterAll(() => {
  for (const f of fixtures) f.remove();
});

async function fixtureOf(kind: keyof typeof SETUP_FIXTURES): Promise<Fixture> {
  const { base, branch } = SETUP_FIXTURES[kind];
  const fixture = await createGateFixture(branch, base);
  fixtures.push(fixture);
  return fixture;
}

async function plan(
  fixture: Fixture,
  args: readonly string[],
): Promise<{ code: number; plan: GatePlanJson; stderr: string }> {
  const run = await runCliInProcess(fixture.root, ['gate', '--plan', ...args]);
  return { code: run.exitCode, plan: JSON.parse(run.stdout || 'null') as GatePlanJson, stderr: run.stderr };
}

const planned = (p: GatePlanJson): string[] =>
  p.tests.map((t) => `${t.project === '' ? '-' : t.project} ${t.file} > ${t.fullName} [${t.selection}]`);

describe('flakeguard gate reads the project the way Vitest does', () => {
  it('a custom include: only the files Vitest runs are selected', async () => {
    const { code, plan: p, stderr } = await plan(await fixtureOf('include'), []);
    expect(planned(p), stderr).toEqual(['- checks/cart.check.ts > totals the cart [new]']);
    expect(p.vitestConfig).toBe('vitest.config.ts');
    // A real plan is what schemas/gate-plan.schema.json says (issue 47).
    expect(schemaErrors('gate-plan', p)).toEqual([]);
    expect(code).toBe(0);
  });

  it('projects: a file in two projects runs and is reported in each', async () => {
    const fixture = await fixtureOf('projects');
    const both = await plan(fixture, []);
    expect(planned(both.plan), both.stderr).toEqual([
      'integration test/shared.test.ts > runs without the database [new]',
      'unit test/shared.test.ts > runs without the database [new]',
    ]);
    // The one whole gate here: each project's row comes from a run in that project.
    const run = await fixture.flakeguard(gateAtNoSlowdown(2, 0, '--json'));
    const report = JSON.parse(run.stdout) as GateReportJson;
    expect(
      report.tests.map((t) => `${t.project} ${t.file} > ${t.fullName} ${t.verdict} ${t.passes}/${t.tryCount}`),
      run.stderr,
    ).toEqual([
      'integration test/shared.test.ts > runs without the database failing 0/2',
      'unit test/shared.test.ts > runs without the database stable 2/2',
    ]);
    expect(run.exitCode).toBe(1);
  });

  it('--project keeps one project; an unknown one exits 2', async () => {
    const fixture = await fixtureOf('projects');
    const one = await plan(fixture, ['--project', 'unit']);
    expect(planned(one.plan), one.stderr).toEqual(['unit test/shared.test.ts > runs without the database [new]']);
    expect(one.code).toBe(0);
    const bad = await runCliInProcess(fixture.root, ['gate', '--plan', '--project', 'nope']);
    expect(bad.exitCode).toBe(2);
    // Vitest's own words name the project: 4.1 'No projects matched the filter "nope"', 5.x 'The filter matched no projects: nope'.
    expect(bad.stderr).toMatch(/No projects matched the filter "nope"|The filter matched no projects: nope/);
  });

  it('a workspace package whose Vitest is hoisted to the workspace root', async () => {
    const { code, plan: p, stderr } = await plan(await fixtureOf('workspace'), ['--root', 'packages/app']);
    expect(planned(p), stderr).toEqual(['- test/login.test.ts > logs in [new]']);
    expect(code).toBe(0);
  });

  it('--affected: the tests of files importing a changed helper (through another module)', async () => {
    const fixture = await fixtureOf('affected');
    const { code, plan: p, stderr } = await plan(fixture, ['--affected']);
    expect(planned(p), stderr).toEqual(['- test/price.test.ts > doubles [affected]']);
    expect(p.tests[0]?.affectedBy).toEqual(['src/price.ts']);
    expect(code).toBe(0);
    const without = await plan(fixture, []);
    expect(without.plan.tests).toEqual([]);
  });
});
