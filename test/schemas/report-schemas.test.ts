/**
 * What `triage --json`, `history --json`, `allowances list --json` and `quarantine list --json`
 * print, built by the real builders, validates against the shipped schemas (issue 47).
 */
import { describe, expect, it } from 'vitest';
import { computeAllowanceList, toAllowanceListJson } from '../../src/core/allowances/allowance-list.js';
import { parseAllowanceFile } from '../../src/core/allowances/allowance-parse.js';
import { resolveAllowances } from '../../src/core/allowances/allowance-resolve.js';
import type { SpeedRun } from '../../src/core/calibration/ci-speed.js';
import { computeCiSpeedReport, toCiSpeedJson } from '../../src/core/calibration/ci-speed-report.js';
import { computeHistoryReport, type HistoryInput } from '../../src/core/history/history-report.js';
import { toHistoryQueryJson } from '../../src/core/history-output.js';
import { computeQuarantineList, toQuarantineListJson } from '../../src/core/quarantine/quarantine-list.js';
import {
  computeQuarantineProposals,
  DEFAULT_QUARANTINE_POLICY,
} from '../../src/core/quarantine/quarantine-proposals.js';
import { toTriageJson } from '../../src/core/triage/triage-format.js';
import { filterFindingsByOwner, withFindingOwners } from '../../src/core/triage/triage-owners.js';
import {
  makeHistoryFacts,
  makeLogScan,
  makeObservedTest,
  makeRerun,
  triageOf,
} from '../core/triage/triage-factories.js';
import { schemaErrors } from '../helpers/schema-check.js';

const check = {
  provider: 'github-actions',
  workflow: 'CI',
  job: 'test',
  shard: { index: 1, count: 2 },
  runUrl: 'https://ci/1',
} as const;

describe('triage schema', () => {
  it('validates a red run with an escape, a flake with its cause, a budget excess and an infrastructure line', () => {
    const report = triageOf({
      tests: [
        makeObservedTest({ project: 'unit', check }),
        makeObservedTest({ fullName: 'grp > flaky', state: 'passed', errors: ['Error: once'] }),
        makeObservedTest({ fullName: 'grp > db', errors: ['Error: connect ECONNREFUSED 127.0.0.1:5432'] }),
      ],
      excesses: [
        {
          kind: 'test',
          project: '',
          file: 'test/a.test.ts',
          fullName: 'grp > slow',
          durationMs: 7000,
          limitMs: 5000,
          origin: 'r',
        },
      ],
      logs: [makeLogScan([{ line: 7, id: 'heap-out-of-memory', text: 'FATAL ERROR: heap out of memory', after: [] }])],
      reruns: [makeRerun(5, 5)],
      rerunCount: 5,
      history: {
        branch: 'main',
        window: 40,
        tests: [
          makeHistoryFacts({
            fullName: 'grp > flaky',
            retried: [{ commit: 'abc', startedAt: '2026-11-29T10:15:00.000Z' }],
          }),
        ],
      },
    });
    const owned = withFindingOwners(report, () => ['@org/web']);
    const json = toTriageJson(filterFindingsByOwner(owned, '@org/web'));
    expect(new Set(json.findings.map((f) => f.class))).toEqual(
      new Set(['escape', 'flake', 'budget', 'infrastructure']),
    );
    expect(json).toMatchObject({ format: 'flakeguard-triage', version: 2, ownerFilter: { owner: '@org/web' } });
    expect(json.findings.find((f) => f.class === 'flake')).toHaveProperty('flakeCause');
    expect(schemaErrors('triage', json)).toEqual([]);
  });

  it('validates a green run with nothing to act on, and refuses an unknown class', () => {
    const json = toTriageJson(triageOf({ exitCode: 0 }));
    expect(schemaErrors('triage', json)).toEqual([]);
    const oneEscape = toTriageJson(triageOf({ tests: [makeObservedTest()] }));
    const bad = { ...oneEscape, findings: oneEscape.findings.map((f) => ({ ...f, class: 'gremlins' })) };
    expect(schemaErrors('triage', bad)).not.toEqual([]);
  });
});

const DAY = 86_400_000;
const T0 = Date.parse('2026-11-01T00:00:00Z');
const run = (id: string, scale: number): SpeedRun => ({
  runId: id,
  startedAt: '2026-11-01T00:00:00.000Z',
  durations: new Map(Array.from({ length: 25 }, (_, i) => [`t${i}`, (10 + i) * scale])),
});

function historyInput(): HistoryInput {
  const agg = (testId: number, over = {}) => ({
    testId,
    project: testId === 2 ? 'browser' : '',
    file: `test/t${testId}.test.ts`,
    fullName: `t${testId}`,
    runs: 20,
    failedRuns: 0,
    retriedRuns: 0,
    rerunPassedRuns: 0,
    ...over,
  });
  const plat = (testId: number, medianMs: number) => ({
    testId,
    platform: 'linux',
    runs: 20,
    medianMs,
    p95Ms: medianMs * 1.1,
    limitMs: 5000,
  });
  return {
    query: { since: '2026-11-01', branch: 'main', fullNamePart: null, file: null, top: 5, warnAt: 0.8 },
    runs: 20,
    tests: [agg(1, { failedRuns: 1, retriedRuns: 2, rerunPassedRuns: 1 }), agg(2), agg(3)],
    platforms: [plat(1, 100), plat(2, 4700), plat(3, 3000)],
    series: Array.from({ length: 20 }, (_, i) => ({
      testId: 2,
      platform: 'linux',
      atMs: T0 + i * DAY,
      durationMs: 4500 + 20 * i,
      state: i === 5 ? ('failed' as const) : ('passed' as const),
    })),
    outcomes: [
      {
        testId: 1,
        platform: 'linux',
        shard: '1/2',
        state: 'failed',
        flaky: false,
        error: 'Error: connect ECONNREFUSED',
      },
      {
        testId: 1,
        platform: 'linux',
        shard: '1/2',
        state: 'passed',
        flaky: true,
        error: 'Error: connect ECONNREFUSED',
      },
      { testId: 1, platform: 'linux', shard: '2/2', state: 'passed', flaky: false, error: null },
    ],
  };
}

describe('history report schema', () => {
  it('validates history --json whole: flaky and near-limit tests, CI speeds, quarantine proposals', () => {
    const speeds = computeCiSpeedReport({
      local: [run('h', 1)],
      here: {
        match: 'machine',
        machine: { id: '3f9a1c2b7d10', cpuModel: 'CPU', cores: 8 },
        runs: 1,
        machines: 1,
        others: 0,
      },
      platforms: new Map([
        ['linux', [run('l4', 3.9), run('l3', 3.9), run('l2', 3), run('l1', 3)]],
        ['windows', [run('w1', 2)]],
      ]),
    });
    const proposals = computeQuarantineProposals({
      branch: 'main',
      policy: DEFAULT_QUARANTINE_POLICY,
      tests: [{ project: '', file: 'a.test.ts', fullName: 'often', runs: 200, flakyRuns: 30 }],
      quarantined: [
        { id: 'q1', file: 'a.test.ts', fullName: 'held', lastRuns: Array(20).fill({ state: 'passed', flaky: false }) },
      ],
    });
    const report = computeHistoryReport(historyInput());
    const owned = { ...report, tests: report.tests.map((t) => ({ ...t, owners: ['@org/web'], machines: [] })) };
    const json = toHistoryQueryJson(owned, toCiSpeedJson(speeds), proposals);
    expect(json.tests.map((t) => t.listedFor)).toEqual([['flaky'], ['near-limit']]);
    expect(json.tests[0]?.cause?.class).toBe('network');
    expect(json.tests[1]?.platforms[0]?.daysToLimitRange).not.toBeNull();
    expect(proposals.quarantine.length + proposals.release.length).toBe(2);
    expect(schemaErrors('history-report', json)).toEqual([]);
  });

  it('validates the filtered view, and refuses the chart points left in', () => {
    const input = historyInput();
    const report = computeHistoryReport({ ...input, query: { ...input.query, file: 'test' } });
    const json = toHistoryQueryJson(report, [], {
      branch: null,
      policy: DEFAULT_QUARANTINE_POLICY,
      quarantine: [],
      release: [],
    });
    expect(json.view).toBe('filtered');
    expect(schemaErrors('history-report', json)).toEqual([]);
    expect(schemaErrors('history-report', { ...json, tests: report.tests })).not.toEqual([]);
  });
});

const ALLOWANCES = `# header
- id: a1b2c3d4
  test: cart > pays
  file: test/cart.test.ts
  fingerprint: 506e73b1656f6429
  budget: { linux: 7s, default: 6s }
  reason: loads a journal
  added: 2026-11-30
  expires: 2027-01-31
- id: b2c3d4e5
  test: cart > gone
  file: test/cart.test.ts
  budget: 2s
  reason: slow
  added: 2026-11-30
  quarantine:
    reason: flaky on CI
    link: https://tracker.example/T-19
    expires: 2026-12-01
    owners: "@org/web @dana"
- id: c3d4e5f6
  test: cart > totals
  file: test/cart.test.ts
  added: 2026-11-30
  quarantine:
    reason: flaky on CI
- id: a1b2c3d4
  test: cart > twice
  file: test/cart.test.ts
  budget: 3s
  reason: a duplicate id
  added: 2026-11-30
`;

function resolved() {
  const parsed = parseAllowanceFile(ALLOWANCES, 'allowances/test/cart.test.ts.yaml');
  const test = (fullName: string) => ({ file: 'test/cart.test.ts', fullName, fingerprint: null, inRun: true, line: 3 });
  const resolutions = resolveAllowances({
    allowances: parsed.allowances,
    tests: [test('cart > pays'), test('cart > totals')],
    renames: new Map(),
    today: '2026-12-06',
  });
  return { parsed, resolutions };
}

describe('allowance and quarantine list schemas', () => {
  it('validate allowances list --json with exact, orphan and expired rows and a problem', () => {
    const { parsed, resolutions } = resolved();
    const list = toAllowanceListJson(
      computeAllowanceList(
        resolutions,
        parsed.problems,
        'linux',
        new Map([['["test/cart.test.ts","cart > pays"]', 6100]]),
      ),
    );
    expect(list.allowances.map((a) => a.match)).toEqual(expect.arrayContaining(['exact', 'orphan']));
    expect(schemaErrors('allowance-list', list)).toEqual([]);
  });

  it('validate quarantine list --json with an applying and an expired orphan quarantine', () => {
    const { resolutions } = resolved();
    const json = toQuarantineListJson(computeQuarantineList(resolutions, '2026-12-06'), '2026-12-06');
    expect(json.quarantines.map((q) => q.state).sort()).toEqual(['applies', 'orphan']);
    expect(schemaErrors('quarantine-list', json)).toEqual([]);
  });
});
