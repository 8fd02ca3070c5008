/**
 * Bad input catalogue (issue 48, findings 5 and 6): the cause named is the true one. A CI matrix of
 * three shards over a two-file suite (`vitest run --shard=i/3`: Vitest refuses every shard, "--shard
 * <count> must be a smaller than count of test files") is one infrastructure finding in triage, not
 * three escapes. A history store that cannot be written (read-only: chmod, or chattr +i when the
 * tests run as root, whom chmod does not stop) is named as such with its fix, never "damaged ...;
 * move it aside and rebuild it", by the reporter (the run stays green) and by `history ingest`. A
 * full disk is the same path (the probe write refused with ENOSPC): its message is unit-tested in
 * test/io/history/store-damage.test.ts, as no test here can fill a disk. Needs `npm run build`.
 * Vitest runs as the user runs it; triage and history ingest run in this process.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type Fixture, vitestConfigWithReporter } from '../../helpers/fixture.js';
import { seedHistoryStore } from '../../helpers/history-template.js';
import { runCliInProcess } from '../../helpers/in-process-cli.js';
import { expectBadInputInProcess } from './catalogue.js';

const PASSING = (name: string): string => `import { it } from 'vitest';\nit('${name}', () => {});\n`;

describe('a CI matrix with more shards than test files', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await createFixture({
      git: true,
      files: {
        'vitest.config.ts': vitestConfigWithReporter(),
        'test/a.test.ts': PASSING('a'),
        'test/b.test.ts': PASSING('b'),
      },
    });
  }, 60_000);
  afterAll(() => fx.remove());

  it('--shard=i/3 on two files: triage of the three records is one infrastructure finding, no escape', async () => {
    for (const i of [1, 2, 3]) {
      const run = await fx.vitest([`--shard=${i}/3`]);
      expect(run.exitCode, run.output).toBe(1);
      expect(run.output).toContain('--shard <count> must be a smaller than count of test files');
    }
    const records = readdirSync(path.join(fx.root, '.flakeguard/runs')).filter((f) => f.endsWith('.json'));
    expect(records).toHaveLength(3);
    const args = records.flatMap((r) => ['--record', `.flakeguard/runs/${r}`]);
    const triage = await runCliInProcess(fx.root, ['triage', ...args, '--json']);
    const report = JSON.parse(triage.stdout) as {
      counts: Record<string, number>;
      findings: { class: string; cause: string }[];
    };
    expect(report.counts).toMatchObject({ infrastructure: 1, escape: 0, flake: 0 });
    expect(report.findings[0]?.cause).toContain('the CI matrix runs more shards than the suite has test files');
  });
});

describe('a history store that cannot be written', () => {
  let fx: Fixture;
  let store: string;
  const asRoot = process.getuid?.() === 0;
  /** Read-only as the system enforces it for this user: chmod, or for root (whom modes do not stop) chattr from PATH. */
  const setReadOnly = (on: boolean): void => {
    if (asRoot) execFileSync('chattr', ['-R', on ? '+i' : '-i', store]);
    else
      for (const f of [store, ...readdirSync(store, { recursive: true }).map((r) => path.join(store, String(r)))])
        chmodSync(f, on ? statSync(f).mode & ~0o222 : statSync(f).mode | 0o200);
  };
  beforeAll(async () => {
    fx = await createFixture({
      git: true,
      files: {
        'vitest.config.ts': vitestConfigWithReporter(),
        'flakeguard.yaml': 'history: true\n',
        'test/a.test.ts': PASSING('a'),
      },
    });
    seedHistoryStore(fx.root);
    store = path.join(fx.root, '.flakeguard/runs/history');
    setReadOnly(true);
  }, 60_000);
  afterAll(() => {
    setReadOnly(false);
    fx.remove();
  });

  it('the reporter: the run stays green, the warning names the cause and the fix, not damage', async () => {
    const run = await fx.vitest();
    expect(run.exitCode, run.output).toBe(0);
    const warning = run.output.split('\n').find((l) => l.startsWith('flakeguard: warning: the run was not stored'));
    expect(warning, run.output).toContain('history cannot be written');
    expect(warning).toContain('it is not damaged');
    expect(warning).not.toContain('move it aside');
  });

  it('history ingest: exit 2, one line with the cause and the fix', async () => {
    await expectBadInputInProcess(fx, ['history', 'ingest', '.flakeguard/runs'], {
      exit: 2,
      names: ['.flakeguard/runs/history cannot be written', 'it is not damaged', 'then run again'],
    });
  });
});
