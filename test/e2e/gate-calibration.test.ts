/**
 * `gate --slowdown auto` end to end (issue 27): a fixture suite runs here with history on, then as
 * a GitHub Actions job on Linux (its process group slowed at x3 by the gate's own slowdown
 * machinery, test/helpers/slowed-run.ts); the gate on a branch then judges at the factor that CI
 * run really got relative to here, and a test whose limit breaks at x2 is not stable. Without
 * history the gate falls back to the default and says so. The factor is checked against the tests'
 * own clocks (what each measured of its work in both runs), not against a timing window.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/core/duration.js';
import type { GatePlanJson } from '../../src/core/gate/gate-plan.js';
import type { GateReportJson } from '../../src/core/gate/gate-report.js';
import { NO_CI_ENV } from '../../src/core/record/ci-context.js';
import { createFixture, type Fixture, vitestConfigWithReporter } from '../helpers/fixture.js';
import { seedHistoryStore } from '../helpers/history-template.js';
import { flakeguardInProcess } from '../helpers/in-process-cli.js';
import { runVitestSlowedAt } from '../helpers/slowed-run.js';

/** Not in any CI the record knows, whatever runs this suite (every provider's marker blanked). */
const NO_CI = NO_CI_ENV;
const GITHUB_LINUX = {
  ...NO_CI,
  CI: 'true',
  GITHUB_ACTIONS: 'true',
  GITHUB_WORKFLOW: 'CI',
  GITHUB_JOB: 'test',
  GITHUB_RUN_ID: '9001',
  GITHUB_RUN_ATTEMPT: '1',
  GITHUB_REF_NAME: 'main',
  GITHUB_REF_TYPE: 'branch',
  RUNNER_OS: 'Linux',
};

/** Fixed CPU work (no clock in the loop): the same work in every run. */
const WORK = `export function work(rounds) {
  let x = 0;
  for (let i = 0; i < rounds * 100_000; i++) x = (x * 31 + i) % 1_000_003;
  return x;
}
`;

/** 24 tests of 5-25 ms of work each; each writes what its own clock measured (wall ms) to clocks/<label>.jsonl. */
const SPEED_SUITE = `import { appendFileSync, mkdirSync } from 'node:fs';
import { expect, it } from 'vitest';
import { work } from '../src/work.js';

mkdirSync('clocks', { recursive: true });
for (let i = 0; i < 24; i++) {
  it(\`computes batch \${i}\`, () => {
    const t0 = performance.now();
    expect(work(20 + i * 4)).toBeGreaterThanOrEqual(0);
    appendFileSync(\`clocks/\${process.env.CLOCK_LABEL}.jsonl\`, JSON.stringify({ i, ms: performance.now() - t0 }) + '\\n');
  });
}
`;

/**
 * Holds while its work takes less than 2x its CPU time (its own clocks): breaks at x2, holds at x1.5.
 * Below the x3 CI run's factor, so the gate's one try at that factor fails and it gets one try
 * without slowdown, not the higher factors and 6 more tries at the reference of a test that held.
 */
const LIMIT_TEST = `import { expect, it } from 'vitest';
import { work } from '../src/work.js';

it('answers within its limit', () => {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  work(150);
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  expect(wall / ((cpu.user + cpu.system) / 1000)).toBeLessThan(2);
});
`;

function clocks(root: string, label: string): Map<number, number> {
  const lines = readFileSync(path.join(root, 'clocks', `${label}.jsonl`), 'utf8')
    .trim()
    .split('\n');
  return new Map(lines.map((l) => JSON.parse(l) as { i: number; ms: number }).map((c) => [c.i, c.ms]));
}

/** The median of the per-test ratios CI / here from the tests' own clocks. */
function clockRatio(root: string): number {
  const here = clocks(root, 'here');
  const ci = clocks(root, 'ci');
  const ratios = [...ci].map(([i, ms]) => ms / (here.get(i) as number)).sort((a, b) => a - b);
  const mid = ratios.length >> 1;
  return ratios.length % 2 ? (ratios[mid] as number) : Math.sqrt((ratios[mid - 1] as number) * (ratios[mid] as number));
}

describe('gate --slowdown auto', () => {
  let fx: Fixture;
  let paced = 'not run';
  beforeAll(async () => {
    fx = await createFixture({
      git: true,
      files: {
        'flakeguard.yaml': 'budget:\n  test: 30s\nhistory: true\n',
        'vitest.config.ts': vitestConfigWithReporter("pool: 'forks'"),
        '.gitignore': '.flakeguard/\nclocks/\n',
        'src/work.js': WORK,
        'test/speed.test.ts': SPEED_SUITE,
      },
    });
    // A copy of the run's template store: the subject is the speed history holds, not its creation.
    seedHistoryStore(fx.root);
    const here = await fx.vitest([], { ...NO_CI, CLOCK_LABEL: 'here' });
    expect(here.exitCode, here.output).toBe(0);
    const env: NodeJS.ProcessEnv = { ...process.env, ...GITHUB_LINUX, CLOCK_LABEL: 'ci', NO_COLOR: '1' };
    for (const k of Object.keys(env)) if (k.startsWith('VITEST') || k === 'NODE_OPTIONS') delete env[k];
    const ci = await runVitestSlowedAt(fx.root, 3, env);
    expect(ci.exitCode, ci.output).toBe(0);
    expect(ci.output).toContain('run stored');
    paced = `${ci.method}, the tree got x${ci.factor?.toFixed(2) ?? '?'}`;
    await fx.git(['checkout', '-q', '-b', 'feature']);
    fx.write('test/limit.test.ts', LIMIT_TEST);
    await fx.git(['add', '.']);
    await fx.git(['commit', '-qm', 'a test with a time limit']);
  }, 240_000);

  afterAll(() => fx.remove());

  it('judges at the factor CI ran at relative to here, says how it chose it, and the x2 limit is not stable', async () => {
    // One try: "not stable" needs no more. A test that fails its reference try is not stable; one
    // that holds there (a factor judged below x2) gets tries at twice the factor, where it breaks
    // the x2 limit, and is then fragile (failures only above the reference: a warning, exit 0 with
    // gate.fragile: warn) or flaky: not stable either way.
    const gate = await fx.flakeguard(
      ['gate', '--slowdown', 'auto', '--tries', '1', '--max-tries', '1', '--json', '--markdown', 'gate.md'],
      NO_CI,
    );
    const report = JSON.parse(gate.stdout) as GateReportJson;
    expect(gate.exitCode, gate.output).toBe(report.tests.every((t) => t.verdict === 'fragile') ? 0 : 1);
    const c = report.contention;
    const truth = clockRatio(fx.root);
    console.log(
      `calibration: target x${c?.target}, ratio ${c?.calibration?.ratio}, interval ${c?.calibration?.interval?.join('-')}; the tests' own clocks x${truth.toFixed(2)}; the pacer (${paced})`,
    );
    expect(c?.calibration).toMatchObject({ source: 'history', platform: 'linux', tests: 24, runs: 1, reason: null });
    // Against the run here, on this machine (issue 37).
    expect(c?.calibration?.local).toMatchObject({ match: 'machine', runs: 1, machines: 1, others: 0 });
    // The gate never judges below x1 (a CI faster than here is judged at x1).
    expect(Math.abs((c?.target ?? 0) / Math.max(1, truth) - 1)).toBeLessThanOrEqual(0.15);
    const [lo, hi] = c?.calibration?.interval ?? [0, 0];
    expect(lo).toBeLessThanOrEqual(c?.calibration?.ratio ?? 0);
    expect(hi).toBeGreaterThanOrEqual(c?.calibration?.ratio ?? 0);
    expect(gate.stderr).toMatch(
      /contention: target x[\d.]+ \(auto: CI linux runs (?:[\d.]+x slower than here|faster than here \([\d.]+x the time\)), 95% CI [\d.]+-[\d.]+, from 24 tests in the last 1 run, against 1 run of this machine [0-9a-f]{12}(?:, judged at x1)?\)/,
    );
    expect(report.tests.map((t) => [t.fullName, t.verdict === 'stable'])).toEqual([
      ['answers within its limit', false],
    ]);
    const markdown = readFileSync(path.join(fx.root, 'gate.md'), 'utf8');
    expect(markdown).toMatch(/x[\d.]+ here = x[\d.]+ on CI linux/);
    expect(markdown).toContain('(auto: CI linux runs');
  }, 240_000);

  it("history lists CI linux's speed relative to here and proposes its timeouts as text to review", async () => {
    const history = await flakeguardInProcess(fx, ['history'], NO_CI);
    expect(history.exitCode, history.output).toBe(0);
    console.log(history.stdout.slice(history.stdout.indexOf('CI speed')));
    expect(history.stdout).toMatch(
      /\n {2}linux: (?:[\d.]+x slower than here|faster than here \([\d.]+x the time\)) \(95% CI [\d.]+-[\d.]+, 24 tests, last 1 run\); trend: needs 4 runs(?:\n|$)/,
    );
    const json = JSON.parse((await flakeguardInProcess(fx, ['history', '--json'], NO_CI)).stdout) as {
      ciSpeed: unknown[];
    };
    expect(json.ciSpeed).toMatchObject([{ platform: 'linux', tests: 24, runs: 1, localRuns: 1, trend: null }]);
    const proposals = await flakeguardInProcess(fx, ['history', '--propose-timeouts'], NO_CI);
    expect(proposals.exitCode, proposals.output).toBe(0);
    console.log(proposals.stdout);
    expect(proposals.stdout).toContain('nothing was changed');
    // The budget is written the shortest way it parses back (30s x 6 = "3m") and is 30 s x the
    // multiplier (a whole number of tenths, so 3 s x the tenths, exactly).
    const proposed = /\n {4}linux: (\S+) {3}# CI linux: 30s x ([\d.]+)(?:\n|$)/.exec(proposals.stdout);
    expect(proposed, proposals.stdout).not.toBeNull();
    const [, budget, multiplier] = proposed as RegExpExecArray;
    expect(parseDuration(budget)).toEqual({ ok: true, ms: 3_000 * Math.round(Number(multiplier) * 10) });
  }, 120_000);

  // The subject is the chosen slowdown only: `gate --plan` resolves --slowdown auto the same way (gate-calibration.ts) and runs nothing.
  it('without history falls back to the default and says why', async () => {
    fx.write('flakeguard.yaml', 'budget:\n  test: 30s\n');
    const planned = await fx.flakeguard(['gate', '--plan', '--slowdown', 'auto'], NO_CI);
    expect(planned.exitCode, planned.output).toBe(0);
    const plan = JSON.parse(planned.stdout) as GatePlanJson;
    expect(plan.limits).toMatchObject({
      slowdown: 2,
      calibration: { source: 'default', ratio: null, reason: expect.stringContaining('history is off') },
    });
    expect(planned.stderr).toContain('contention: target x2 (auto: the default x2, history is off');
  }, 120_000);
});
