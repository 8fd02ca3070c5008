/**
 * Bad input catalogue: untrusted text is escaped and cut (issue 48, finding 11). A CPU model and a
 * CI job name come from the machine and the environment of whoever made the run record; a 10 kB
 * one is shown as its first 100 characters and its length (core/excerpt.ts NAME_MAX), never whole
 * per test in `history` or per finding in triage's "caught by:" line. Needs `npm run build`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRecord } from '../../core/history/history-factories.js';
import { createFixture, type Fixture } from '../../helpers/fixture.js';
import { ingestRunRecords, seedHistoryStore } from '../../helpers/history-template.js';
import { runCliInProcess } from '../../helpers/in-process-cli.js';

const CPU = 'Z'.repeat(10_000);
const JOB = 'j'.repeat(10_000);
const CUT = (c: string) => `${c.repeat(100)}… (10000 characters)`;

let fx: Fixture;
beforeAll(async () => {
  fx = await createFixture({
    git: true,
    files: { 'test/a.test.ts': "import { it } from 'vitest';\nit('adds', () => {});\n" },
  });
  seedHistoryStore(fx.root);
  const startedAt = new Date(Date.now() - 3_600_000).toISOString();
  const record = makeRecord({
    runId: 'long',
    startedAt,
    tests: [
      { name: 'adds', state: 'failed' },
      { name: 'retries', flaky: true },
    ],
  });
  const ci = {
    provider: 'github-actions',
    workflow: 'CI',
    job: JOB,
    runId: '7',
    attempt: 1,
    runUrl: 'https://github.com/acme/shop/actions/runs/7',
    branch: 'main',
    commit: 'c0ffee',
    runnerOs: 'Linux',
    shard: null,
  };
  const machine = { id: '3f9a1c2b7d10', cpuModel: CPU, cores: 4 };
  fx.write('.flakeguard/runs/long.json', JSON.stringify({ ...record, ci, machine }));
  await ingestRunRecords(fx, 'history: true\n');
}, 120_000);
afterAll(() => fx.remove());

const longest = (text: string): number => Math.max(...text.split('\n').map((l) => l.length));

describe('a 10 kB CPU model and job name', () => {
  it('flakeguard history: the CPU model cut to 100 characters with its length', async () => {
    const run = await runCliInProcess(fx.root, ['history']);
    expect(run.exitCode, run.output).toBe(0);
    expect(run.stdout).toContain(`3f9a1c2b7d10 (${CUT('Z')}, 4 cores)`);
    expect(longest(run.stdout)).toBeLessThan(400);
  });

  it('flakeguard triage: the job name cut to 100 characters with its length in "caught by:"', async () => {
    const run = await runCliInProcess(fx.root, ['triage', '--record', '.flakeguard/runs/long.json']);
    expect(run.exitCode, run.output).toBe(1);
    expect(run.stdout).toContain(
      `caught by: GitHub Actions CI / ${CUT('j')} https://github.com/acme/shop/actions/runs/7`,
    );
    expect(longest(run.stdout)).toBeLessThan(400);
  });
});
