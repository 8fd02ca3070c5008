/**
 * Realistic gate and triage reports for the HTML renderer tests, built through the real compute
 * functions (decideGateVerdict, proposeAllowance, serializeEntry, computeGateReport; computeTriage
 * with the built-in log signatures), so the pages are rendered from what `--json` would print.
 */
import { serializeEntry } from '../../../src/core/allowances/allowance-serialize.js';
import { proposeAllowance } from '../../../src/core/gate/gate-proposal.js';
import {
  computeGateReport,
  type GateLoad,
  type GateProposal,
  type GateReport,
} from '../../../src/core/gate/gate-report.js';
import type { GateTestInput } from '../../../src/core/gate/gate-report-test.js';
import { decideGateVerdict, type GateLimit } from '../../../src/core/gate/gate-verdict.js';
import type { GateTry } from '../../../src/core/gate/runner-protocol.js';
import type { SelectionKind } from '../../../src/core/gate/test-selection.js';
import { computeTriage } from '../../../src/core/triage/triage.js';
import { type TriageJson, toTriageJson } from '../../../src/core/triage/triage-format.js';
import { BUILT_IN_SIGNATURES } from '../../../src/core/triage/triage-signatures.js';
import type { ObservedTest, TriageInputs } from '../../../src/core/triage/triage-types.js';

export const WARN_AT = 0.8;
const BUDGET: GateLimit = { limitMs: 5000, source: 'budget', platformKey: 'linux' };
const ok = (...ms: number[]): GateTry[] => ms.map((durationMs) => ({ state: 'passed', durationMs }));
const bad = (error: string, ...ms: number[]): GateTry[] =>
  ms.map((durationMs) => ({ state: 'failed', durationMs, error }));

interface GateCase {
  readonly file: string;
  readonly name: string;
  readonly line: number;
  readonly selection: SelectionKind;
  readonly previous?: { readonly file: string; readonly fullName: string };
  readonly tries: readonly GateTry[];
  readonly idle?: readonly GateTry[];
  readonly alone?: readonly GateTry[];
  readonly limit?: GateLimit;
}

function gateTest(c: GateCase): GateTestInput {
  const result = decideGateVerdict({
    tries: c.tries,
    loaded: true,
    idle: c.idle ?? null,
    alone: c.alone ?? null,
    limit: c.limit ?? BUDGET,
    warnAt: WARN_AT,
  });
  return { file: c.file, fullName: c.name, line: c.line, selection: c.selection, previous: c.previous ?? null, result };
}

export const GATE_CASES: readonly GateCase[] = [
  {
    file: 'test/checkout.test.ts',
    name: 'checkout > applies a coupon once',
    line: 18,
    selection: 'new',
    tries: ok(212, 198, 240, 205, 221),
    alone: ok(190),
  },
  {
    file: 'test/hub/tracker.test.ts',
    name: 'tracker > reloads the journal after a crash',
    line: 42,
    selection: 'new',
    tries: ok(4210, 4420, 4900, 4380, 4510),
    alone: ok(4120),
  },
  {
    file: 'test/hub/sync.test.ts',
    name: 'sync > merges 5,000 remote edits',
    line: 77,
    selection: 'changed',
    tries: ok(5100, 5310, 4980, 5220, 5050),
  },
  {
    file: 'test/api/retry.test.ts',
    name: 'retry > backs off after a 503',
    line: 12,
    selection: 'new',
    tries: [
      ...ok(310),
      ...bad('AssertionError: expected 2 to be 3 // Object.is equality', 2004),
      ...ok(290, 305),
      ...bad('AssertionError: expected 2 to be 3', 1998),
    ],
    alone: ok(300),
  },
  {
    file: 'test/api/clock.test.ts',
    name: 'clock > ticks within 50ms',
    line: 9,
    selection: 'new',
    tries: bad('Error: Test timed out in 1000ms.', 1003, 1001, 1002, 1004, 1001),
    idle: ok(41, 44, 39),
  },
  {
    file: 'test/api/totals.test.ts',
    name: 'totals > rounds half to even',
    line: 31,
    selection: 'changed',
    tries: bad('AssertionError: expected 2.5 to be 2\n    at test/api/totals.test.ts:33:18', 12, 9, 11, 10, 9),
    idle: bad('AssertionError: expected 2.5 to be 2', 8, 9, 8),
  },
  {
    file: 'test/db/session.test.ts',
    name: 'session > reuses the cached user',
    line: 54,
    selection: 'new',
    tries: ok(35, 31, 29, 33, 30),
    alone: bad("TypeError: Cannot read properties of undefined (reading 'id')", 4),
  },
  {
    file: 'test/parse/names.test.ts',
    name: 'parser > handles "<script>alert(1)</script>" & \'quotes\' (regex .*?[a-z]+$)',
    line: 5,
    selection: 'renamed',
    previous: { file: 'test/parse/names.test.ts', fullName: 'parser > handles quotes' },
    tries: ok(58, 61, 55, 57, 60),
  },
  {
    file: 'test/import/rows.test.ts',
    name: 'import > loads 10k rows from CSV',
    line: 20,
    selection: 'moved',
    previous: { file: 'test/rows.test.ts', fullName: 'import > loads 10k rows from CSV' },
    tries: ok(8210, 8530, 8120, 8890, 8340),
    limit: { limitMs: 12_000, source: 'allowance', platformKey: 'linux', allowanceId: 'b41c09e2' },
  },
];

export const GATE_LOAD: GateLoad = {
  workers: 2,
  pids: [41877, 41878],
  cpus: 2,
  loadavgBefore: [0.61, 0.72, 0.8],
  loadavgAfter: [2.87, 1.54, 1.02],
  workersMachineShare: 0.93,
  testsCpuShare: 0.47,
};

export function makeGateReport(cases: readonly GateCase[] = GATE_CASES, load: GateLoad = GATE_LOAD): GateReport {
  const tests = cases.map(gateTest);
  const proposals: GateProposal[] = [];
  for (const t of tests) {
    const p = proposeAllowance({ file: t.file, fullName: t.fullName }, t.result, BUDGET.limitMs, 'linux', load.workers);
    if (p === null) continue;
    const id = `gate${proposals.length + 1}`.padEnd(8, '0');
    const entry = {
      id,
      fullName: t.fullName,
      file: t.file,
      fingerprint: 'f3a9c2d1',
      budget: { kind: 'map' as const, values: { linux: p.limitMs } },
      reason: p.reason,
      added: '2026-11-30',
      expires: null,
    };
    proposals.push({
      file: t.file,
      fullName: t.fullName,
      id,
      limitMs: p.limitMs,
      platformKey: 'linux',
      reason: p.reason,
      storeFile: `allowances/${t.file}.yaml`,
      yaml: serializeEntry(entry),
      written: false,
    });
  }
  return computeGateReport({
    base: '3f9c1e0a7b5d2c4e6f8a0b1c2d3e4f5a6b7c8d9e',
    baseRef: 'origin/main',
    tries: 5,
    platform: 'linux',
    vitestVersion: '4.1.12',
    load,
    tests,
    notRun: [
      {
        file: 'test/hub/tracker.test.ts',
        fullName: 'tracker > each row %s',
        line: 88,
        reason: 'a test.each row name is only known at run time',
      },
    ],
    unchanged: 14,
    proposals,
    notices: ['base origin/main is 3 commits behind the remote; run git fetch for the newest base'],
    wallMs: 63_412,
  });
}

const observed = (over: Partial<ObservedTest> & Pick<ObservedTest, 'file' | 'fullName' | 'state'>): ObservedTest => ({
  kind: 'test',
  project: null,
  line: 10,
  durationMs: 120,
  errors: [],
  limitMs: 5000,
  source: 'record',
  origin: `record .flakeguard/records/run.json: ${over.file} > ${over.fullName}`,
  ...over,
});

export function makeTriageInputs(): TriageInputs {
  const stack = Array.from({ length: 30 }, (_, i) => `    at frame${i} (test/api/orders.test.ts:${40 + i}:7)`);
  return {
    tests: [
      observed({
        file: 'test/api/orders.test.ts',
        fullName: 'orders > totals <b>bold</b> & "quoted"',
        state: 'failed',
        errors: [`AssertionError: expected 41.99 to be 42\n${stack.join('\n')}`],
      }),
      observed({
        file: 'test/api/payments.test.ts',
        fullName: 'payments > retries on 503',
        state: 'failed',
        errors: ['Error: Test timed out in 5000ms.'],
      }),
      observed({
        file: 'test/db/pool.test.ts',
        fullName: 'pool > connects',
        state: 'failed',
        errors: ['Error: connect ECONNREFUSED 127.0.0.1:5432'],
      }),
      observed({
        file: 'test/ui/menu.test.ts',
        fullName: 'menu > opens on hover',
        state: 'passed',
        errors: ['AssertionError: expected false to be true'],
      }),
      observed({ file: 'test/hub/tracker.test.ts', fullName: 'tracker > reloads', state: 'passed', durationMs: 5310 }),
    ],
    files: [],
    unhandled: [],
    excesses: [
      {
        kind: 'test',
        project: null,
        file: 'test/hub/tracker.test.ts',
        fullName: 'tracker > reloads',
        durationMs: 5310,
        limitMs: 5000,
        origin: 'record .flakeguard/records/run.json: tests[4] took 5310ms, limit 5000ms',
      },
    ],
    problems: [],
    logs: [
      {
        input: 'ci.log',
        lines: 48_211,
        events: [
          {
            line: 40_112,
            text: 'npm error code ENOSPC',
            id: 'enospc',
            after: [
              'npm error syscall write',
              'npm error errno -28',
              'npm error nospc ENOSPC: no space left on device, write',
            ],
          },
        ],
        counts: { enospc: 1 },
        tail: [{ line: 48_211, text: 'Error: Process completed with exit code 1.' }],
      },
    ],
    exitCode: 1,
    exitCodeOrigin: '--exit-code 1',
    reruns: [
      {
        project: null,
        file: 'test/api/orders.test.ts',
        fullName: 'orders > totals <b>bold</b> & "quoted"',
        runs: 5,
        failed: 5,
        notRun: 0,
        firstError: 'AssertionError: expected 41.99 to be 42',
      },
      {
        project: null,
        file: 'test/api/payments.test.ts',
        fullName: 'payments > retries on 503',
        runs: 5,
        failed: 0,
        notRun: 0,
        firstError: null,
      },
    ],
    rerunCount: 5,
  };
}

export function makeTriageReport(): TriageJson {
  return toTriageJson(computeTriage(makeTriageInputs(), BUILT_IN_SIGNATURES));
}
