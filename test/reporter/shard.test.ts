import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/core/record/run-record.js';
import type { Fixture, RunResult } from '../helpers/fixture.js';
import { REPORTER_BUILT } from '../helpers/fixture.js';
import { records, reporterProject, testFile } from './reporter-fixture.js';

/** The blob reporter prints its own line after ours; flakeguard's verdict is its last line. */
function lastFlakeguardLine(stdout: string): string {
  return (
    stdout
      .split('\n')
      .filter((l) => l.startsWith('flakeguard: '))
      .at(-1) ?? ''
  );
}

describe('reporter: sharded runs and merged reports', () => {
  let fx: Fixture;
  let shard1: RunResult;
  let shard2: RunResult;
  let merged: RunResult;
  let byKind: { shard1: RunRecord | undefined; shard2: RunRecord | undefined; merged: RunRecord | undefined };
  let head: string;
  const reporters = ['--reporter=default', '--reporter=blob', `--reporter=${REPORTER_BUILT}`];

  beforeAll(async () => {
    fx = await reporterProject(
      {
        'one.test.ts': testFile(`test('one', () => {});`),
        'two.test.ts': testFile(`test('two is slow', async () => { await sleep(300); });`),
      },
      { yaml: 'budget:\n  test: 200ms\n', git: true },
    );
    head = (await fx.git(['rev-parse', 'HEAD'])).trim();
    shard1 = await fx.vitest(['--shard=1/2', ...reporters]);
    shard2 = await fx.vitest(['--shard=2/2', ...reporters]);
    merged = await fx.vitest(['--merge-reports', '--reporter=default', `--reporter=${REPORTER_BUILT}`]);
    const all = records(fx);
    byKind = {
      shard1: all.find((r) => r.shard?.index === 1),
      shard2: all.find((r) => r.shard?.index === 2),
      merged: all.find((r) => r.merged),
    };
  });
  afterAll(() => fx.remove());

  it('writes one record per shard with its index and count, and checks each shard alone', () => {
    expect(records(fx)).toHaveLength(3);
    expect(byKind.shard1?.shard).toEqual({ index: 1, count: 2 });
    expect(byKind.shard2?.shard).toEqual({ index: 2, count: 2 });
    expect(byKind.shard1?.runId).toMatch(/-shard-1-of-2$/);
    const shard1Files = byKind.shard1?.files.map((f) => f.file) ?? [];
    const shard2Files = byKind.shard2?.files.map((f) => f.file) ?? [];
    expect([...shard1Files, ...shard2Files].sort()).toEqual(['one.test.ts', 'two.test.ts']);
    const slowShard = shard1Files.includes('two.test.ts') ? shard1 : shard2;
    const fastShard = slowShard === shard1 ? shard2 : shard1;
    expect(slowShard.exitCode).toBe(1);
    expect(lastFlakeguardLine(slowShard.stdout)).toBe(
      'flakeguard: run failed on duration budgets: 1 test over budget (no test failed)',
    );
    expect(fastShard.exitCode).toBe(0);
  });

  it('checks the merged report once, over every test of every shard', () => {
    expect(merged.exitCode).toBe(1);
    expect(byKind.merged?.shard).toBeNull();
    expect(byKind.merged?.tests.map((t) => t.key).sort()).toEqual(['one.test.ts::one', 'two.test.ts::two is slow']);
    expect(byKind.merged?.violations).toHaveLength(1);
    // The test's line is found in its source by a module the reporter imports lazily. Loaded from a
    // path outside node_modules (as here), the reporter goes through Vite, and a merge run restores
    // the shards' Vite module graphs from the blobs (readBlobs), which list that module without its
    // code: it comes back empty and the line is missing. Installed in node_modules (as users have
    // it) the reporter is loaded by Node and the line is there: test/e2e/packed-install.test.ts.
    expect(merged.stdout.match(/over budget {2}two\.test\.ts(:3)? {2}two is slow/g)).toHaveLength(1);
  });

  it('records the commit the run started from and whether the tree was dirty', () => {
    expect(byKind.shard1?.git).toEqual({ commit: head, dirty: false });
    // The first shard's blob report (.vitest-reports) is an untracked file when the second starts.
    expect(byKind.shard2?.git).toEqual({ commit: head, dirty: true });
  });
});
