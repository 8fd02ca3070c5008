/**
 * A new user's install: `npm pack`, then the tarball installed into fresh projects that have only
 * Vitest (4.1.12 on Node 20, and 5.x on Node 22 fetched from the npm registry's `node` package),
 * set up as the README says, with the reporter, `triage`, `allowances` and `gate` run through the
 * installed `flakeguard` bin. Fails when `files`, `exports`, `bin` or a runtime dependency is wrong,
 * or when an output (record, triage, gate, init's flakeguard.yaml, an allowance file) breaks the
 * JSON Schema the installed package ships.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { formatDuration } from '../../src/core/duration.js';
import { packTarball, sh } from '../helpers/packed.js';
import { schemaErrors } from '../helpers/schema-check.js';

const VITEST_5 = process.env['FLAKEGUARD_VITEST5_VERSION'] ?? '5';
const scratch = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-pack-'));
let tarball = '';

beforeAll(async () => {
  tarball = await packTarball(scratch);
}, 120_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function makeProject(name: string, vitestVersion: string) {
  const dir = path.join(scratch, name);
  mkdirSync(path.join(dir, 'test'), { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }, null, 2));
  const install = await sh(dir, 'npm', [
    'i',
    '-D',
    '-E',
    '--no-audit',
    '--no-fund',
    `vitest@${vitestVersion}`,
    'vite@8.3.8',
    tarball,
  ]);
  expect(install.exitCode, install.all).toBe(0);
  // As the README says: the reporters line, the seed setup file (replays from CI) and `flakeguard init`.
  writeFileSync(
    path.join(dir, 'vitest.config.ts'),
    `import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { reporters: ['default', 'flakeguard/reporter'], setupFiles: ['flakeguard/seed'] } });\n`,
  );
  writeFileSync(path.join(dir, '.gitignore'), 'node_modules\n.flakeguard\n');
  writeFileSync(
    path.join(dir, 'test/slow.test.ts'),
    `import { describe, expect, it } from 'vitest';\ndescribe('journal', () => {\n  it('replays "all" entries [slow]', async () => {\n    await new Promise((r) => setTimeout(r, 450));\n    expect(1).toBe(1);\n  });\n});\n`,
  );
  return dir;
}

/**
 * A JSON output validates against the schema the installed package ships, found through its
 * `exports` (`flakeguard/schemas/<name>.schema.json`) as a user's program would (issue 47).
 */
function expectShippedSchema(dir: string, name: string, value: unknown): void {
  const file = createRequire(path.join(dir, 'package.json')).resolve(`flakeguard/schemas/${name}.schema.json`);
  expect(file).toBe(path.join(dir, 'node_modules/flakeguard/schemas', `${name}.schema.json`));
  expect(schemaErrors(name, value, path.dirname(file)), name).toEqual([]);
}

async function userJourney(dir: string, node: string) {
  const vitest = () => sh(dir, node, ['node_modules/vitest/vitest.mjs', 'run']);
  const flakeguard = (...args: string[]) => sh(dir, node, ['node_modules/.bin/flakeguard', ...args]);

  const init = await flakeguard('init');
  expect(init.exitCode, init.all).toBe(0);
  const configPath = path.join(dir, 'flakeguard.yaml');
  expectShippedSchema(dir, 'config', parse(readFileSync(configPath, 'utf8')));
  expect(readFileSync(path.join(dir, 'node_modules/flakeguard/CHANGELOG.md'), 'utf8')).toContain(
    `## ${(JSON.parse(readFileSync(path.join(dir, 'node_modules/flakeguard/package.json'), 'utf8')) as { version: string }).version}`,
  );
  writeFileSync(configPath, `${readFileSync(configPath, 'utf8').replace('test: 5s', 'test: 300ms')}\nseed: true\n`);
  // `flakeguard/seed` through the package's exports, as Vitest's setupFiles resolves it.
  expect(createRequire(path.join(dir, 'package.json')).resolve('flakeguard/seed')).toBe(
    path.join(dir, 'node_modules/flakeguard/dist/runner/seed-setup.js'),
  );

  const red = await vitest();
  expect(red.exitCode, red.all).toBe(1);
  const records = readdirSync(path.join(dir, '.flakeguard/runs'));
  // The printed duration is the one the run recorded, not a window around the 450ms sleep.
  const recorded = JSON.parse(readFileSync(path.join(dir, '.flakeguard/runs', records[0] ?? ''), 'utf8')) as {
    runSeed?: number;
    tests: { durationMs: number; seeds?: number[] }[];
  };
  expectShippedSchema(dir, 'run-record', recorded);
  // seed: true: the run's seed and the test's, one attempt.
  expect(typeof recorded.runSeed).toBe('number');
  expect(recorded.tests[0]?.seeds).toHaveLength(1);
  // The record keeps 0.01 ms; the line prints the raw duration: 452.496 ms is "452ms" there and
  // 452.5 ("453ms") in the record, so either side of that rounding is the same duration.
  const durationMs = recorded.tests[0]?.durationMs ?? Number.NaN;
  const printed = `(?:${[...new Set([durationMs - 0.005, durationMs, durationMs + 0.005].map(formatDuration))].join('|').replaceAll('.', '\\.')})`;
  expect(red.all).toMatch(
    new RegExp(
      `over budget {2}test/slow\\.test\\.ts:3 {2}journal > replays "all" entries \\[slow\\] {2}${printed} > 300ms`,
    ),
  );

  const triage = await flakeguard(
    'triage',
    '--record',
    path.join('.flakeguard/runs', records[0] ?? ''),
    '--exit-code',
    '1',
    '--json',
  );
  expect(triage.exitCode, triage.all).toBe(1);
  const triaged = JSON.parse(triage.stdout) as {
    verdict: string;
    findings: { class: string; fullName: string | null }[];
  };
  expect(triaged.verdict).toBe('red');
  expectShippedSchema(dir, 'triage', triaged);
  expect(triaged.findings.map((f) => [f.class, f.fullName])).toEqual([
    ['budget', 'journal > replays "all" entries [slow]'],
  ]);

  const add = await flakeguard(
    'allowances',
    'add',
    '--file',
    'test/slow.test.ts',
    '--test',
    'journal > replays "all" entries [slow]',
    '--budget',
    '2s',
    '--reason',
    'replays the whole journal',
  );
  expect(add.exitCode, add.all).toBe(0);
  expectShippedSchema(
    dir,
    'allowances',
    parse(readFileSync(path.join(dir, 'allowances/test/slow.test.ts.yaml'), 'utf8')),
  );
  const green = await vitest();
  expect(green.exitCode, green.all).toBe(0);

  await sh(dir, 'git', ['init', '-q', '-b', 'main']);
  await sh(dir, 'git', ['add', '-A']);
  await sh(dir, 'git', ['commit', '-qm', 'base']);
  writeFileSync(
    path.join(dir, 'test/new.test.ts'),
    `import { expect, it } from 'vitest';\nit('adds', () => { expect(1 + 1).toBe(2); });\n`,
  );
  const gate = await flakeguard('gate', '--base', 'main', '--load', '0', '--tries', '3', '--max-tries', '3', '--json');
  expect(gate.exitCode, gate.all).toBe(0);
  const gated = JSON.parse(gate.stdout) as {
    verdict: string;
    tests: { fullName: string; verdict: string; passes: number; tryCount: number }[];
  };
  expect(gated.verdict).toBe('pass');
  expectShippedSchema(dir, 'gate-report', gated);
  expect(gated.tests.map((t) => [t.fullName, t.verdict, t.passes, t.tryCount])).toEqual([['adds', 'stable', 3, 3]]);

  const check = await flakeguard('allowances', 'check');
  expect(check.exitCode, check.all).toBe(0);

  // Sharded CI: each shard checks its own tests; the merged report is checked once.
  rmSync(path.join(dir, 'allowances'), { recursive: true, force: true });
  for (const shard of ['1/2', '2/2'])
    await sh(dir, node, [
      'node_modules/vitest/vitest.mjs',
      'run',
      `--shard=${shard}`,
      '--reporter=blob',
      '--reporter=flakeguard/reporter',
    ]);
  const merged = await sh(dir, node, [
    'node_modules/vitest/vitest.mjs',
    'run',
    '--merge-reports',
    '--reporter=default',
    '--reporter=flakeguard/reporter',
  ]);
  expect(merged.exitCode, merged.all).toBe(1);
  expect(
    merged.all.match(/over budget {2}test\/slow\.test\.ts:3 {2}journal > replays "all" entries \[slow\]/g),
    merged.all,
  ).toHaveLength(1);
}

describe('the packed tarball in a fresh project', () => {
  it('works with vitest 4.1.12 on the Node that runs this suite', async () => {
    const dir = await makeProject('v4-project', '4.1.12');
    await userJourney(dir, process.execPath);
  }, 600_000);

  it('works with vitest 5 (FLAKEGUARD_VITEST5_VERSION, default the newest 5.x) on Node 22', async () => {
    const node22 = await sh(scratch, 'npx', ['-y', '-p', 'node@22', 'node', '-p', 'process.execPath']);
    expect(node22.exitCode, node22.all).toBe(0);
    const node = node22.all.trim().split('\n').pop() ?? '';
    const dir = await makeProject('v5-project', VITEST_5);
    await userJourney(dir, node);
  }, 600_000);
});
