/**
 * Issue 37: "here" is this machine. A store a team shares holds CI runs and local runs of many
 * machines; `history`'s CI speeds (the estimate `gate --slowdown auto` judges at, read by the same
 * code: io/history/ci-speed-read.ts) compare CI with this machine's runs only, else with machines of
 * its class (same CPU model and core count), else say there are none. Records made the way the
 * reporter makes them, stored with `history ingest` in this process (no Vitest run: the subject is
 * which stored runs are compared, not how a run is recorded; test/e2e/history.test.ts keeps the
 * reporter recording this machine).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CiContext, NO_CI_ENV } from '../../src/core/record/ci-context.js';
import { describeMachine, describeMachineClass, type MachineIdentity } from '../../src/core/record/machine.js';
import type { RunRecord } from '../../src/core/record/run-record.js';
import { readMachineIdentity } from '../../src/io/machine.js';
import { makeRecord } from '../core/history/history-factories.js';
import { createFixture, type Fixture } from '../helpers/fixture.js';
import { seedHistoryStore } from '../helpers/history-template.js';
import { flakeguardInProcess } from '../helpers/in-process-cli.js';

/** Not in any CI the record knows, nor CI at all, whatever runs this suite. */
const NO_CI = { ...NO_CI_ENV, CI: '' };

const CI_LINUX: CiContext = {
  provider: 'github-actions',
  workflow: 'CI',
  job: 'test',
  runId: '9001',
  attempt: 1,
  runUrl: null,
  branch: 'main',
  commit: null,
  runnerOs: 'Linux',
  shard: null,
};

/** A run of 25 tests of `ms` each, an hour ago plus `minute`, on `machine`. */
function run(
  runId: string,
  minute: number,
  ms: number,
  machine: MachineIdentity | null,
  ci: CiContext | null,
): RunRecord {
  const tests = Array.from({ length: 25 }, (_, i) => ({ name: `speed > case ${i}`, durationMs: ms }));
  const startedAt = new Date(Date.now() - 3_600_000 + minute * 60_000).toISOString();
  return { ...makeRecord({ runId, startedAt, platform: process.platform, tests }), ci, machine };
}

describe('CI speed relative to this machine, not to every machine in the store', () => {
  const here = readMachineIdentity();
  let fx: Fixture;

  async function store(record: RunRecord): Promise<void> {
    fx.write(`artifacts/${record.runId}.json`, JSON.stringify(record));
    const ingest = await flakeguardInProcess(fx, ['history', 'ingest', `artifacts/${record.runId}.json`], NO_CI);
    expect(ingest.exitCode, ingest.output).toBe(0);
  }

  async function ciSpeed(): Promise<{ text: string; json: Record<string, unknown>[] }> {
    const text = await flakeguardInProcess(fx, ['history'], NO_CI);
    expect(text.exitCode, text.output).toBe(0);
    const json = await flakeguardInProcess(fx, ['history', '--json'], NO_CI);
    return {
      text: text.stdout.slice(text.stdout.indexOf('CI speed')),
      json: (JSON.parse(json.stdout) as { ciSpeed: Record<string, unknown>[] }).ciSpeed,
    };
  }

  beforeAll(async () => {
    fx = await createFixture({ files: { 'flakeguard.yaml': 'history: true\n' } });
    seedHistoryStore(fx.root);
    await store(run('ci-1', 1, 90, null, CI_LINUX));
    // A laptop of another class, and a run recorded before machines were: never "here".
    await store(run('laptop', 2, 10, { id: 'cccccccccccc', cpuModel: 'Other CPU', cores: here.cores + 1 }, null));
    await store(run('before-ids', 3, 45, null, null));
  });
  afterAll(() => fx.remove());

  it('with no run of this machine or of its class: no estimate, and says so', async () => {
    const { text, json } = await ciSpeed();
    expect(text).toContain(
      `CI speed relative to this machine (here: no run of this machine ${here.id} or of its class (${describeMachineClass(here)}); docs/history.md):`,
    );
    expect(text).toContain(
      `  linux: no estimate: no run of this machine (${describeMachine(here)}) or of its class in history (2 local runs of other machines or with no machine recorded not compared); run the suite here once with history on`,
    );
    expect(json).toMatchObject([{ platform: 'linux', ratio: null, local: { match: 'none', runs: 0, others: 2 } }]);
  });

  it("falls back to a machine of this machine's class, then compares with this machine alone", async () => {
    await store(
      run('twin', 4, 30, { ...here, id: here.id === 'dddddddddddd' ? 'eeeeeeeeeeee' : 'dddddddddddd' }, null),
    );
    const twin = await ciSpeed();
    expect(twin.text).toContain(
      `(here: 1 run of 1 machine of this machine's class (${describeMachineClass(here)}; none of this machine ${here.id}); docs/history.md):`,
    );
    expect(twin.text).toContain('  linux: 3.0x slower than here (95% CI 3.0-3.0, 25 tests, last 1 run)');
    expect(twin.json).toMatchObject([{ ratio: 3, local: { match: 'class', runs: 1, machines: 1, others: 2 } }]);

    await store(run('mine', 5, 15, here, null));
    const mine = await ciSpeed();
    expect(mine.text).toContain(`(here: 1 run of this machine ${here.id}; docs/history.md):`);
    expect(mine.text).toContain('  linux: 6.0x slower than here (95% CI 6.0-6.0, 25 tests, last 1 run)');
    expect(mine.json).toMatchObject([{ ratio: 6, local: { match: 'machine', runs: 1, machines: 1, others: 3 } }]);
  });
});
