import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyBreakingPoint } from '../../../src/core/gate/breaking-point.js';
import { describeMissingCheck, formatMissingCheck } from '../../../src/core/gate/gate-evidence.js';
import { formatGateMarkdown } from '../../../src/core/gate/gate-markdown.js';
import { computeGateReport, toGateReportJson } from '../../../src/core/gate/gate-report.js';
import { decideGateVerdict } from '../../../src/core/gate/gate-verdict.js';
import type { GateTry } from '../../../src/core/gate/runner-protocol.js';
import { renderGateHtml } from '../../../src/core/html/html-gate.js';
import { fail, makeInput, pass } from './gate-verdict-factories.js';

const hung: GateTry = { state: 'hung', durationMs: 10, error: 'hung' };
const failed = (t: GateTry): boolean => t.state === 'failed' || t.state === 'hung';
const passed = (t: GateTry): boolean => t.state === 'passed';
const tryArb = fc.constantFrom<GateTry>(pass(), fail(), hung);
const tries = (max: number) => fc.array(tryArb, { maxLength: max });

/** A random gate outcome: what each check returned, and whether (and how far) the budget cut it. */
const outcomeArb = fc.record({
  minTries: fc.integer({ min: 1, max: 6 }),
  isNew: fc.boolean(),
  loaded: fc.boolean(),
  cut: fc.boolean(),
  reference: tries(8),
  idle: fc.option(tries(8), { nil: null }),
  alone: fc.option(tries(3), { nil: null }),
  higher: fc.array(fc.record({ factor: fc.constantFrom(4, 8), tries: tries(2) }), { maxLength: 2 }),
  confirm: tries(6),
  notRun: fc.option(fc.constant('import failed'), { nil: undefined }),
});
type Outcome = typeof outcomeArb extends fc.Arbitrary<infer T> ? T : never;

function judge(o: Outcome) {
  const decided = decideGateVerdict(
    makeInput({
      tries: o.reference,
      loaded: o.loaded,
      idle: o.idle,
      alone: o.alone,
      ...(o.notRun === undefined ? {} : { notRunReason: o.notRun }),
      rules: { minTries: o.minTries, isNew: o.isNew, cut: o.cut },
    }),
  );
  return applyBreakingPoint(decided, { factor: 2, tries: o.reference }, o.higher, o.confirm);
}

/** The checks a verdict claims, each looked for in the tries it was given. */
function evidenceHolds(o: Outcome, r: ReturnType<typeof judge>): boolean {
  const ref = o.reference;
  const atOrBelow = [...ref, ...(o.idle ?? []), ...(o.alone ?? []), ...o.confirm];
  const allRefPassed = ref.length > 0 && ref.every(passed);
  switch (r.verdict) {
    case 'failing':
      return ref.length === 0
        ? o.notRun !== undefined || !o.cut
        : ref.every(failed) && (!o.loaded || ((o.idle?.length ?? 0) >= o.minTries && (o.idle ?? []).every(failed)));
    case 'flaky':
      // A failure the factor does not explain (at the reference, without slowdown, alone) and a pass.
      return atOrBelow.some(failed) && atOrBelow.some(passed);
    case 'order-dependent':
      return allRefPassed && (o.alone?.length ?? 0) >= 3 && (o.alone ?? []).every(failed);
    case 'fragile':
      return allRefPassed && o.higher.some((l) => l.tries.some(failed));
    case 'stable':
      return (
        allRefPassed &&
        (!o.cut || ref.length >= o.minTries) &&
        (!o.isNew || ((o.alone?.length ?? 0) > 0 && (o.alone ?? []).every(passed))) &&
        !o.higher.some((l) => l.tries.some(failed))
      );
    case 'over-budget':
    case 'near-budget':
      return allRefPassed;
    case 'inconclusive':
      return r.missing.some((m) => m.for === 'verdict' && m.made < m.needed);
    default:
      return false;
  }
}

describe('evidence first: a verdict never claims a check it did not make', () => {
  it('property: every verdict finds its evidence in its tries, over random outcomes, cuts and budgets', () => {
    fc.assert(
      fc.property(outcomeArb, (o) => {
        const r = judge(o);
        expect(evidenceHolds(o, r), `${r.verdict}: ${r.reason}`).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('property: a cut never turns into a confident verdict: with the must-have checks cut short, the verdict is inconclusive or one its remaining tries show', () => {
    fc.assert(
      fc.property(outcomeArb, fc.nat(8), fc.nat(3), (o, keepIdle, keepAlone) => {
        const cutShort: Outcome = {
          ...o,
          cut: true,
          idle: o.idle === null ? null : o.idle.slice(0, keepIdle),
          alone: o.alone === null ? null : o.alone.slice(0, keepAlone),
        };
        const r = judge(cutShort);
        expect(evidenceHolds(cutShort, r), `${r.verdict}: ${r.reason}`).toBe(true);
        // A new test that passed with its file is stable only after an alone try it passed.
        if (r.verdict === 'stable' && o.isNew) expect(cutShort.alone?.length ?? 0).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('failing needs the tries without slowdown; cut short, the verdict says what is missing and what allows it', () => {
    const all = [fail(), fail(), fail(), fail(), fail()];
    const r = decideGateVerdict(
      makeInput({ tries: all, idle: [fail(), fail()], rules: { minTries: 5, isNew: false, cut: true } }),
    );
    expect(r.verdict).toBe('inconclusive');
    expect(r.reason).toBe(
      'failed 5/5 tries under load and 2/2 without slowdown: a real failure or a slowdown it cannot take; not checked, so no verdict',
    );
    const [m] = r.missing;
    expect(m && describeMissingCheck(m)).toBe('3 tries without slowdown, one at a time (2 made), for the verdict');
    expect(m && formatMissingCheck(m, 'cut by the time budget 30s; --time-budget 90s allows it')).toBe(
      '3 tries without slowdown, one at a time (2 made), for the verdict: cut by the time budget 30s; --time-budget 90s allows it',
    );
  });

  it('a failure without slowdown that the busy machine slowed to x1.9 is no evidence about x1: not failing, not counted', () => {
    const all = [fail(), fail(), fail(), fail(), fail()];
    const slowed = { ...fail(), slowdown: 1.9 };
    const r = decideGateVerdict(
      makeInput({
        tries: all,
        idle: [slowed, slowed, slowed, fail(), fail()],
        rules: { minTries: 5, isNew: false, cut: false },
      }),
    );
    expect(r).toMatchObject({ verdict: 'inconclusive', idle: { passes: 0, tryCount: 2 } });
    const [m] = r.missing;
    expect(m && describeMissingCheck(m)).toBe(
      "3 tries without slowdown, one at a time (2 made; 3 more failed slowed above x1.25 by the machine's own load, so they do not count), for the verdict",
    );
    // A pass counts however slowed it was: it passed at least that slowed.
    const passed = decideGateVerdict(makeInput({ tries: all, idle: [{ ...pass(), slowdown: 1.9 }] }));
    expect(passed).toMatchObject({ verdict: 'flaky', loadSensitive: true });
  });

  it('a new test is stable only after its alone try; a budget finding stands without it, naming it missing', () => {
    const rules = { minTries: 5, isNew: true, cut: true };
    expect(decideGateVerdict(makeInput({ rules })).verdict).toBe('inconclusive');
    expect(decideGateVerdict(makeInput({ rules, alone: [pass()] })).verdict).toBe('stable');
    const over = decideGateVerdict(
      makeInput({ rules, tries: [pass(1500), pass(1400), pass(900), pass(900), pass(900)] }),
    );
    expect(over).toMatchObject({ verdict: 'over-budget', missing: [{ check: 'alone', made: 0 }] });
  });

  it('a test cut before its first try is inconclusive, not failing; one Vitest never ran is failing', () => {
    const cut = decideGateVerdict(makeInput({ tries: [], rules: { minTries: 5, isNew: false, cut: true } }));
    expect(cut).toMatchObject({ verdict: 'inconclusive', missing: [{ check: 'reference', needed: 5, made: 0 }] });
    expect(decideGateVerdict(makeInput({ tries: [], notRunReason: 'import failed' })).verdict).toBe('failing');
  });

  it("a flaky test's cause needs the tries without slowdown: cut, they are named missing for the cause", () => {
    const r = decideGateVerdict(
      makeInput({ tries: [pass(), fail(), pass()], rules: { minTries: 5, isNew: false, cut: true } }),
    );
    expect(r).toMatchObject({ verdict: 'flaky', missing: [{ check: 'unthrottled', for: 'cause', made: 0 }] });
  });
});

describe('the reports say what is missing', () => {
  it('JSON, Markdown and HTML name each missing check of an inconclusive test; it fails the gate', () => {
    const result = decideGateVerdict(
      makeInput({ tries: [fail(), fail(), fail()], rules: { minTries: 3, isNew: false, cut: true } }),
    );
    const missing = [
      '3 tries without slowdown, one at a time, for the verdict: cut by the time budget 30s; --time-budget 90s allows it',
    ];
    const report = computeGateReport({
      base: 'abc',
      baseRef: 'main',
      tries: 3,
      platform: 'linux',
      vitestVersion: '4.1.12',
      load: {
        workers: 0,
        pids: [],
        cpus: 2,
        loadavgBefore: null,
        loadavgAfter: null,
        workersMachineShare: null,
        testsCpuShare: null,
      },
      tests: [
        { file: 'test/a.test.ts', fullName: 'waits', line: 3, selection: 'new', previous: null, result, missing },
      ],
      notRun: [],
      unchanged: 0,
      proposals: [],
      notices: [],
      wallMs: 1000,
    });
    expect(report).toMatchObject({ verdict: 'fail', counts: { inconclusive: 1 } });
    expect(toGateReportJson(report).tests[0]).toMatchObject({ verdict: 'inconclusive', missing });
    expect(formatGateMarkdown(report)).toContain(`missing: ${missing[0]}`);
    // The test to fix first names its Vitest project, as every line that names a test does.
    const inEdge = { ...report, tests: report.tests.map((t) => ({ ...t, project: 'edge' })) };
    expect(formatGateMarkdown(inEdge)).toContain('**Fix first:** `test/a.test.ts:3` [edge] waits: inconclusive');
    expect(renderGateHtml(report, { warnAt: 0.8 })).toContain('<b>missing:</b> 3 tries without slowdown');
  });
});
