import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  computeGatePlan,
  type GatePlanInput,
  type GatePlanSelected,
  toGatePlanJson,
} from '../../../src/core/gate/gate-plan.js';

const test = (file: string, fullName: string, line = 1) => ({ file, fullName, line });

function input(
  selected: readonly GatePlanSelected[],
  more: Partial<GatePlanInput<GatePlanSelected['test']>> = {},
): GatePlanInput<GatePlanSelected['test']> {
  return {
    base: 'abc',
    baseRef: 'main',
    vitestConfig: null,
    shard: null,
    platform: 'linux',
    limits: { tries: 5, maxTries: 10, timeBudgetMs: 120_000, slowdown: 2, loadWorkers: 0, warnAt: 0.8 },
    selected,
    projectsOf: new Map(),
    affectedBy: new Map(),
    limitFor: () => ({ limitMs: 5000, source: 'budget' }),
    notRun: [],
    unchanged: 0,
    changedFiles: 1,
    notices: [],
    cpus: 2,
    timeBudgetGiven: false,
    ...more,
  };
}

describe('computeGatePlan', () => {
  it('gives each selected test its selection, previous place and limit, versioned', () => {
    const plan = computeGatePlan(
      input(
        [
          { kind: 'renamed', test: test('a.test.ts', 'adds', 3), previous: test('a.test.ts', 'sums') },
          { kind: 'affected', test: test('b.test.ts', 'doubles', 2), previous: null },
        ],
        {
          affectedBy: new Map([['b.test.ts', ['src/price.ts']]]),
          limitFor: (t) =>
            t.file === 'a.test.ts'
              ? { limitMs: 9000, source: 'allowance', allowanceId: 'e723808e' }
              : { limitMs: 5000, source: 'budget' },
        },
      ),
    );
    expect(plan).toMatchObject({ format: 'flakeguard-gate-plan', version: 4 });
    const json = JSON.parse(JSON.stringify(toGatePlanJson(plan))).tests[0];
    expect(Object.keys(json ?? {}).slice(0, 3)).toEqual(['file', 'fullName', 'line']);
    expect(json?.previous).toEqual({ file: 'a.test.ts', fullName: 'sums' });
    expect(plan.tests).toEqual([
      {
        file: 'a.test.ts',
        fullName: 'adds',
        line: 3,
        project: '',
        selection: 'renamed',
        previous: { file: 'a.test.ts', fullName: 'sums' },
        affectedBy: [],
        limitMs: 9000,
        limitSource: 'allowance',
        allowanceId: 'e723808e',
      },
      {
        file: 'b.test.ts',
        fullName: 'doubles',
        line: 2,
        project: '',
        selection: 'affected',
        previous: null,
        affectedBy: ['src/price.ts'],
        limitMs: 5000,
        limitSource: 'budget',
        allowanceId: null,
      },
    ]);
  });

  it('has one row per Vitest project a file runs in, an unnamed project as an empty name', () => {
    const plan = computeGatePlan(
      input([{ kind: 'new', test: test('s.test.ts', 'runs'), previous: null }], {
        projectsOf: new Map([['s.test.ts', ['integration', 'unit']]]),
      }),
    );
    expect(plan.tests.map((t) => t.project)).toEqual(['integration', 'unit']);
    const unnamed = computeGatePlan(
      input([{ kind: 'new', test: test('s.test.ts', 'runs'), previous: null }], {
        projectsOf: new Map([['s.test.ts', ['']]]),
      }),
    );
    expect(unnamed.tests.map((t) => t.project)).toEqual(['']);
  });

  it('rows = the sum over selected tests of their project counts, in selection order (property)', () => {
    const files = fc.constantFrom('a.test.ts', 'b.test.ts', 'c.test.ts');
    fc.assert(
      fc.property(
        fc.array(fc.record({ file: files, name: fc.string() })),
        fc.dictionary(files, fc.uniqueArray(fc.constantFrom('', 'unit', 'e2e'), { minLength: 1 })),
        (tests, projects) => {
          const selected = tests.map((t) => ({ kind: 'new' as const, test: test(t.file, t.name), previous: null }));
          const projectsOf = new Map(Object.entries(projects));
          const plan = computeGatePlan(input(selected, { projectsOf }));
          const expected = tests.flatMap((t) => (projectsOf.get(t.file) ?? ['']).map(() => t.name));
          expect(plan.tests.map((r) => r.fullName)).toEqual(expected);
        },
      ),
    );
  });
});
