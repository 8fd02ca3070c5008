/**
 * The triage command end to end on real Vitest output: shards as one run, artifacts from another
 * machine mapped onto --root, a green run, unreadable inputs, Markdown, project patterns from
 * flakeguard.yaml, and budgets from the config overridden by flags. Triage runs in this process
 * (test/helpers/in-process-cli.ts: what it reads and answers is the subject); test/e2e/cli-smoke.test.ts
 * spawns the built CLI's triage.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type Fixture } from '../helpers/fixture.js';
import { flakeguardInProcess } from '../helpers/in-process-cli.js';
import { schemaErrors } from '../helpers/schema-check.js';

let fx: Fixture;

const SLOW = `import { it } from 'vitest';
it('slow [x] (y)', async () => { await new Promise((r) => setTimeout(r, 300)); });
`;
const FAILS = (n: number) => `import { it, expect } from 'vitest';
it('fails ${n}', () => { expect(${n}).toBe(0); });
`;

beforeAll(async () => {
  fx = await createFixture({
    files: {
      'vitest.config.ts': `import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { include: ['test/**/*.test.ts'] } });\n`,
      'test/one.test.ts': FAILS(1),
      'test/two.test.ts': FAILS(2),
      'test/slow.test.ts': SLOW,
      'flakeguard.yaml': `budget:\n  test: 200ms\ntriage:\n  patterns:\n    - id: deploy-lock\n      match: "DEPLOY[prod] (eu) locked"\n      class: infrastructure\n      cause: the deploy lock was held by another job\n      action: wait for the other deploy or release the lock\n`,
    },
  });
  await fx.vitest(['--shard=1/2', '--reporter=json', '--outputFile=out/shard-1.json']);
  await fx.vitest(['--shard=2/2', '--reporter=json', '--outputFile=out/shard-2.json']);
  await fx.vitest(['test/slow.test.ts', '--reporter=json', '--outputFile=out/green.json']);
}, 120_000);

afterAll(() => fx.remove());

interface Json {
  version: number;
  verdict: string;
  findings: {
    class: string;
    fullName: string | null;
    file: string | null;
    cause: string;
    evidence: string[];
    measured: boolean;
  }[];
}

describe('flakeguard triage', () => {
  it('reads two shards as one run and maps paths from the CI runner onto --root', async () => {
    for (const shard of ['shard-1', 'shard-2']) {
      const file = path.join(fx.root, `out/${shard}.json`);
      writeFileSync(
        file.replace('.json', '.ci.json'),
        readFileSync(file, 'utf8').split(fx.root).join('/home/runner/work/app/app'),
      );
    }
    const r = await flakeguardInProcess(fx, [
      'triage',
      '--json',
      '--root',
      '.',
      '--report',
      'out/shard-1.ci.json',
      '--report',
      'out/shard-2.ci.json',
      '--exit-code',
      '1',
      '--budget',
      '5s',
    ]);
    expect(r.exitCode).toBe(1);
    const json = JSON.parse(r.stdout) as Json;
    expect(json.version).toBe(2);
    expect(schemaErrors('triage', json)).toEqual([]);
    expect(json.findings.map((f) => [f.class, f.file, f.fullName, f.measured]).sort()).toEqual([
      ['escape', 'test/one.test.ts', 'fails 1', false],
      ['escape', 'test/two.test.ts', 'fails 2', false],
    ]);
  });

  it('budgets come from flakeguard.yaml and the flags override them', async () => {
    const fromConfig = JSON.parse(
      (await flakeguardInProcess(fx, ['triage', '--json', '--report', 'out/green.json', '--exit-code', '0'])).stdout,
    ) as Json;
    expect(fromConfig.findings).toMatchObject([
      { class: 'budget', fullName: 'slow [x] (y)', file: 'test/slow.test.ts', measured: true },
    ]);
    const r = await flakeguardInProcess(fx, [
      'triage',
      '--json',
      '--report',
      'out/green.json',
      '--exit-code',
      '0',
      '--budget',
      '2s',
    ]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ verdict: 'green', findings: [] });
  });

  it('applies project patterns from flakeguard.yaml literally and prints a table and Markdown', async () => {
    fx.write('out/deploy.log', 'step 1\nDEPLOY[prod] (eu) locked by job 41\nDEPLOYprod eu locked\n');
    const r = await flakeguardInProcess(fx, [
      'triage',
      '--log',
      'out/deploy.log',
      '--exit-code',
      '1',
      '--markdown',
      'out/summary.md',
    ]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('infrastructure 1, escape 0, flake 0, budget 0');
    expect(r.stdout).toContain('cause: the deploy lock was held by another job: DEPLOY[prod] (eu) locked by job 41');
    expect(r.stdout).toContain('- out/deploy.log:2: DEPLOY[prod] (eu) locked by job 41');
    expect(r.stdout).not.toContain('deploy.log:3');
    const md = readFileSync(path.join(fx.root, 'out/summary.md'), 'utf8');
    expect(md).toContain('## flakeguard triage: run red (exit code 1)');
    expect(md).toContain('| infrastructure | 1 |');
  });

  it('exits 2 when no input can be read, and on bad flags', async () => {
    const missing = await flakeguardInProcess(fx, ['triage', '--report', 'out/none.json']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('--report out/none.json: does not exist');
    const none = await flakeguardInProcess(fx, ['triage']);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('no inputs: pass --record, --report, --junit or --log');
    const bad = await flakeguardInProcess(fx, ['triage', '--log', 'x', '--rerun', 'many']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--rerun "many" must be a whole number of at least 1');
  });
});
