import { afterAll, describe, expect, it } from 'vitest';
import type { GateReport } from '../../src/core/gate/gate-report.js';
import type { Fixture } from '../helpers/fixture.js';
import { createGateFixture, gateAtNoSlowdown, SETUP_FIXTURES } from './gate-fixtures.js';

// Needs `npm run build`. The project's Vitest as configured: which files are tests, in which
// projects, from where Vitest is installed, and which tests import a changed module. At no
// slowdown (--slowdown 1), so a test that holds gets no tries at higher factors: the subject is
// which tests run, not the factor they run at.
const CHEAP = gateAtNoSlowdown(2, 0, '--json');
const fixtures: Fixture[] = [];
afterAll(() => {
  for (const f of fixtures) f.remove();
});

async function gate(
  kind: keyof typeof SETUP_FIXTURES,
  args: readonly string[],
): Promise<{ code: number; report: GateReport; fixture: Fixture; stderr: string }> {
  const { base, branch } = SETUP_FIXTURES[kind];
  const fixture = await createGateFixture(branch, base);
  fixtures.push(fixture);
  const run = await fixture.flakeguard([...CHEAP, ...args]);
  return { code: run.exitCode, report: JSON.parse(run.stdout) as GateReport, fixture, stderr: run.stderr };
}

const rows = (r: GateReport): string[] =>
  r.tests.map((t) => `${t.project ?? '-'} ${t.file} > ${t.name} [${t.selection}] ${t.verdict} ${t.passes}/${t.runs}`);

describe('flakeguard gate reads the project the way Vitest does', () => {
  it('a custom include: only the files Vitest runs are selected', async () => {
    const { code, report, stderr } = await gate('include', []);
    expect(rows(report), stderr).toEqual(['- checks/cart.check.ts > totals the cart [new] stable 2/2']);
    expect(code).toBe(0);
  });

  it('projects: a file in two projects runs and is reported in each', async () => {
    const both = await gate('projects', []);
    expect(rows(both.report), both.stderr).toEqual([
      'integration test/shared.test.ts > runs without the database [new] failing 0/2',
      'unit test/shared.test.ts > runs without the database [new] stable 2/2',
    ]);
    expect(both.code).toBe(1);
  });

  it('--project keeps one project; an unknown one exits 2', async () => {
    const { base, branch } = SETUP_FIXTURES.projects;
    const fixture = await createGateFixture(branch, base);
    fixtures.push(fixture);
    const one = await fixture.flakeguard([...CHEAP, '--project', 'unit']);
    expect(rows(JSON.parse(one.stdout) as GateReport), one.stderr).toEqual([
      'unit test/shared.test.ts > runs without the database [new] stable 2/2',
    ]);
    expect(one.exitCode).toBe(0);
    const bad = await fixture.flakeguard([...CHEAP, '--project', 'nope']);
    expect(bad.exitCode).toBe(2);
    // Vitest's own words name the project: 4.1 'No projects matched the filter "nope"', 5.x 'The filter matched no projects: nope'.
    expect(bad.stderr).toMatch(/No projects matched the filter "nope"|The filter matched no projects: nope/);
  });

  it('a workspace package whose Vitest is hoisted to the workspace root', async () => {
    const { code, report, stderr } = await gate('workspace', ['--root', 'packages/app']);
    expect(rows(report), stderr).toEqual(['- test/login.test.ts > logs in [new] stable 2/2']);
    expect(code).toBe(0);
  });

  it('--affected: the tests of files importing a changed helper (through another module)', async () => {
    const { code, report, fixture, stderr } = await gate('affected', ['--affected']);
    expect(rows(report), stderr).toEqual(['- test/price.test.ts > doubles [affected] stable 2/2']);
    expect(report.tests[0]?.affectedBy).toEqual(['src/price.ts']);
    expect(code).toBe(0);
    const without = await fixture.flakeguard(CHEAP);
    expect((JSON.parse(without.stdout) as GateReport).tests).toEqual([]);
  });
});
