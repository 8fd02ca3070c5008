/**
 * Proposals from history on a store filled by a real run (the reporter's record, stored with history
 * ingest as the reporter stores it: test/helpers/history-template.ts's ingestRunRecords): a test that
 * fails its first try in every run and passes its retry (a counter file) is proposed for quarantine
 * on the default branch; a quarantined test that passed its last runs is proposed for release;
 * --write writes both. Every run of the fixture is the same (the counter makes each one fail the
 * first try and pass the retry), so the real run's record, stored again as two earlier runs (their
 * own run ids and times), makes the three runs the proposals need.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { makeRunId } from '../../src/core/budget/run-record-build.js';
import type { RunRecord } from '../../src/core/record/run-record.js';
import { listRunRecords } from '../../src/io/record/run-record-file.js';
import { createFixture, type Fixture, vitestConfigWithReporter } from '../helpers/fixture.js';
import { ingestRunRecords, seedHistoryStore } from '../helpers/history-template.js';
import { flakeguardInProcess } from '../helpers/in-process-cli.js';

const FLAKY = `import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('sync', () => {
  it('retries a dropped connection', () => {
    const file = new URL('./tries.txt', import.meta.url);
    const tries = existsSync(file) ? Number(readFileSync(file, 'utf8')) + 1 : 1;
    writeFileSync(file, String(tries));
    expect(tries % 2).toBe(0);
  });

  it('is steady', () => {
    expect(1).toBe(1);
  });
});
`;

let fixture: Fixture | undefined;
afterEach(() => {
  fixture?.remove();
  fixture = undefined;
});

describe('quarantine proposals from history', () => {
  it('proposes quarantine for a flaky test and release for a steady quarantined one; --write writes both', async () => {
    const fx = await createFixture({
      git: true,
      files: {
        'vitest.config.ts': vitestConfigWithReporter('retry: 1,'),
        'flakeguard.yaml': 'budget:\n  test: 5s\n',
        'test/sync.test.ts': FLAKY,
        '.gitignore': 'test/tries.txt\n.flakeguard/\n',
      },
    });
    fixture = fx;
    seedHistoryStore(fx.root);
    const held = await flakeguardInProcess(fx, [
      'quarantine',
      'add',
      '--file',
      'test/sync.test.ts',
      '--test',
      'sync > is steady',
      '--reason',
      'was flaky last month',
      '--expires',
      '2999-01-01',
    ]);
    expect(held.exitCode, held.output).toBe(0);
    await fx.git(['add', '-A']);
    await fx.git(['commit', '-qm', 'tests']);
    const run = await fx.vitest();
    expect(run.exitCode, run.output).toBe(0);
    const written = listRunRecords(fx.root, '.flakeguard/runs');
    expect(written).toHaveLength(1);
    const record = JSON.parse(readFileSync(written[0] as string, 'utf8')) as RunRecord;
    expect(record.tests.find((t) => t.fullName === 'sync > retries a dropped connection')).toMatchObject({
      flaky: true,
    });
    for (const minutes of [1, 2]) {
      const earlier = (iso: string): string => new Date(Date.parse(iso) - minutes * 60_000).toISOString();
      const startedAt = earlier(record.startedAt);
      const runId = makeRunId(startedAt, `again${minutes}`, null, false);
      const again = { ...record, runId, startedAt, endedAt: earlier(record.endedAt) };
      fx.write(`.flakeguard/runs/${runId}.json`, JSON.stringify(again));
    }
    await ingestRunRecords(fx, 'budget:\n  test: 5s\nhistory: true\n');
    const branch = execFileSync('git', ['rev-parse', '--abbrev-ref', 'HEAD'], {
      cwd: fx.root,
      encoding: 'utf8',
    }).trim();
    const query = await flakeguardInProcess(fx, ['history', '--release-after', '3', '--json']);
    expect(query.exitCode, query.output).toBe(0);
    const proposals = (
      JSON.parse(query.stdout) as {
        proposals: {
          branch: string;
          quarantine: { fullName: string; flakyRuns: number; runs: number }[];
          release: { fullName: string }[];
        };
      }
    ).proposals;
    expect(proposals.branch).toBe(branch);
    expect(proposals.quarantine).toEqual([
      expect.objectContaining({ fullName: 'sync > retries a dropped connection', flakyRuns: 3, runs: 3 }),
    ]);
    expect(proposals.release).toEqual([expect.objectContaining({ fullName: 'sync > is steady' })]);

    const text = await flakeguardInProcess(fx, ['history', '--release-after', '3']);
    expect(text.stdout).toContain(`Proposals on ${branch}`);
    expect(text.stdout).toMatch(
      /quarantine {2}test\/sync\.test\.ts {2}sync > retries a dropped connection {2}flaky in 3 of 3 runs \(at least \d+(\.\d)?%\)/,
    );

    const write = await flakeguardInProcess(fx, ['history', '--release-after', '3', '--write']);
    expect(write.exitCode, write.output).toBe(0);
    const list = JSON.parse((await flakeguardInProcess(fx, ['quarantine', 'list', '--json'])).stdout) as {
      quarantines: { fullName: string; reason: string; expires: string }[];
    };
    expect(list.quarantines.map((q) => q.fullName)).toEqual(['sync > retries a dropped connection']);
    expect(list.quarantines[0]?.reason).toContain('flaky in 3 of 3 runs');
    expect(list.quarantines[0]?.expires).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});
