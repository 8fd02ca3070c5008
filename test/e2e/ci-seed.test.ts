/**
 * Replays from CI (issue 46 item 4) on the real Vitest: with `seed: true` and the flakeguard/seed
 * setup file, an ordinary `vitest run` seeds a Math.random flake (1 in 5) from FLAKEGUARD_SEED, the
 * run record keeps the seed of its failed attempt, triage prints the replay with that seed, and the
 * printed command (its words as a shell makes them) fails 10 of 10 tries, while a plain replay
 * fails at the flake's own rate. Without the setup file the reporter says so once, the record keeps
 * no seed, and triage says "no seed recorded" where the replay would be. The run seeds are found
 * here with the generator and derivation the setup file uses (core/replay/seeded-random.ts), so
 * nothing depends on chance but the plain replay's count, which is only bounded. Needs `npm run build`.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeededRandom, deriveTrySeed } from '../../src/core/replay/seeded-random.js';
import { testKey } from '../../src/core/test-id.js';
import { createFixture, type Fixture, REPO_ROOT, REPORTER_BUILT } from '../helpers/fixture.js';
import { flakeguardInProcess } from '../helpers/in-process-cli.js';
import { schemaErrors } from '../helpers/schema-check.js';

/** The built setup file, as `flakeguard/seed` resolves in a user's project. */
const SEED_SETUP_BUILT = path.join(REPO_ROOT, 'dist/runner/seed-setup.js');

const COIN = `import { expect, it } from 'vitest';
it('flips a coin', () => {
  expect(Math.random() < 0.2, 'the coin came up tails').toBe(false);
});
it('adds', () => {
  expect(1 + 1).toBe(2);
});
let tries = 0;
it('passes on its retry', () => {
  tries += 1;
  expect(tries, 'the first try fails').toBeGreaterThan(1);
});
`;
const config = (setupFiles: boolean) => `import { defineConfig } from 'vitest/config';
export default defineConfig({ test: { retry: 1, reporters: ['default', ${JSON.stringify(REPORTER_BUILT)}]${
  setupFiles ? `, setupFiles: [${JSON.stringify(SEED_SETUP_BUILT)}]` : ''
} } });
`;

const KEY = testKey({ project: '', file: 'test/draw.test.ts', fullName: 'flips a coin' });
const tails = (runSeed: number, attempt: number): boolean =>
  createSeededRandom(deriveTrySeed(runSeed, KEY, attempt)).next() < 0.2;
/** The first run seed from 1 whose two attempts (the run and its retry) both come up tails: a red run. */
function firstRunSeed(fails: (runSeed: number) => boolean): number {
  for (let s = 1; ; s += 1) if (fails(s)) return s;
}
const RED_SEED = firstRunSeed((s) => tails(s, 0) && tails(s, 1));

interface RecordedTest {
  fullName: string;
  state: string;
  seeds?: number[];
  failedSeed?: number;
}
interface Finding {
  class: string;
  fullName: string | null;
  replay?: { command: string | null; seed: number | null; note: string };
}

/** The words a POSIX shell makes of the printed command's arguments (after `npx flakeguard`). */
function shellWords(command: string): string[] {
  const script = `set -- ${command.replace(/^npx flakeguard /, '')}; for a in "$@"; do printf '%s\\0' "$a"; done`;
  return execFileSync('sh', ['-c', script], { encoding: 'utf8' }).split('\0').slice(0, -1);
}

const failedOf = (stdout: string): number => Number(/failed (\d+)\/10 tries/.exec(stdout)?.[1] ?? -1);

describe('replays from CI (seed: true)', () => {
  let fx: Fixture;
  const newestRecord = (): { runSeed?: number | null; tests: RecordedTest[]; file: string } => {
    const dir = path.join(fx.root, '.flakeguard/runs');
    const name = readdirSync(dir).sort().at(-1) ?? '';
    return { ...JSON.parse(readFileSync(path.join(dir, name), 'utf8')), file: `.flakeguard/runs/${name}` };
  };

  beforeAll(async () => {
    fx = await createFixture({
      files: {
        'flakeguard.yaml': 'seed: true\n',
        'vitest.config.ts': config(true),
        'vitest.unseeded.config.ts': config(false),
        'test/draw.test.ts': COIN,
      },
    });
  });
  afterAll(() => fx.remove());

  it('the record keeps the failed seed, triage prints its replay, and the replay fails 10 of 10', async () => {
    const run = await fx.vitest([], { FLAKEGUARD_SEED: String(RED_SEED) });
    expect(run.exitCode, run.output).toBe(1);
    expect(run.output).not.toContain('no test of');
    const record = newestRecord();
    expect(record.runSeed).toBe(RED_SEED);
    const coin = record.tests.find((t) => t.fullName === 'flips a coin');
    const attempts = [0, 1].map((a) => deriveTrySeed(RED_SEED, KEY, a));
    expect(coin).toMatchObject({ state: 'failed', seeds: attempts, failedSeed: attempts[0] });
    expect(record.tests.find((t) => t.fullName === 'adds')?.seeds).toHaveLength(1);
    const retried = record.tests.find((t) => t.fullName === 'passes on its retry');
    expect(retried).toMatchObject({ state: 'passed', failedSeed: retried?.seeds?.[0] });
    expect(retried?.seeds).toHaveLength(2);

    const triage = await flakeguardInProcess(fx, ['triage', '--record', record.file, '--json']);
    expect(triage.exitCode, triage.output).toBe(1);
    const json = JSON.parse(triage.stdout) as { findings: Finding[] };
    expect(schemaErrors('triage', json)).toEqual([]);
    const coinFinding = json.findings.find((f) => f.fullName === 'flips a coin');
    const command = `npx flakeguard replay "test/draw.test.ts" -t "flips a coin" --seed ${attempts[0]}`;
    expect(coinFinding).toMatchObject({ class: 'escape', replay: { command, seed: attempts[0] } });
    expect(json.findings.find((f) => f.fullName === 'passes on its retry')).toMatchObject({
      class: 'flake',
      replay: { seed: retried?.failedSeed },
    });
    const text = await flakeguardInProcess(fx, ['triage', '--record', record.file]);
    expect(text.stdout).toContain(`   replay: ${command} (the seed its failed attempt started with in the run)`);

    const replay = await fx.flakeguard(shellWords(command));
    expect(replay.exitCode, replay.output).toBe(1);
    expect(replay.stdout).toContain('failed 10/10 tries');
    const plain = await fx.flakeguard(['replay', 'test/draw.test.ts', '-t', 'flips a coin']);
    expect([0, 1], plain.output).toContain(plain.exitCode);
    // 10 of 10 at 1 in 5 is a chance of 1 in 10 million.
    expect(failedOf(plain.stdout)).toBeLessThan(10);
    process.stderr.write(
      `ci-seed figures: replay of the CI seed ${failedOf(replay.stdout)}/10, plain replay ${failedOf(plain.stdout)}/10\n`,
    );
  }, 180_000);

  it('without the setup file the reporter says so once; the record keeps no seed; triage says none was recorded', async () => {
    const run = await fx.vitest(['--config', 'vitest.unseeded.config.ts'], { FLAKEGUARD_SEED: String(RED_SEED) });
    const line = `flakeguard: seed: true in flakeguard.yaml, but no test of the Vitest config was seeded, so the run record keeps no seeds; add the setup file: test: { setupFiles: ['flakeguard/seed'] } (docs/replay.md "Replays from CI")`;
    expect(run.stderr.split(line)).toHaveLength(2);
    const record = newestRecord();
    expect(record.tests.every((t) => t.seeds === undefined && t.failedSeed === undefined)).toBe(true);
    // The retried test failed its first try, seeded or not: a flake whose seed no record kept.
    const triage = await flakeguardInProcess(fx, ['triage', '--record', record.file]);
    expect(triage.stdout).toMatch(/flake \(measured\) test\/draw\.test\.ts > passes on its retry\n/);
    expect(triage.stdout).toContain('   replay: no seed recorded (seed: true records them)');
    expect(triage.stdout).not.toMatch(/replay: npx/);
  }, 120_000);
});

// `seed: node-crypto`: node:crypto's randomInt is seeded too, the record says so, and triage's
// replay carries --seed-node-crypto: its tries draw the ticket the CI attempt drew.
const TICKET = `import { appendFileSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import { expect, it } from 'vitest';
it('draws a ticket', () => {
  const ticket = randomInt(0, 1_000_000_000);
  appendFileSync('tickets.log', ticket + '\\n');
  expect(ticket, 'no ticket wins').toBe(-1);
});
`;

describe('replays from CI (seed: node-crypto)', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await createFixture({
      files: {
        'flakeguard.yaml': 'seed: node-crypto\n',
        'vitest.config.ts': config(true),
        'test/ticket.test.ts': TICKET,
      },
    });
  });
  afterAll(() => fx.remove());
  const tickets = (): string[] => readFileSync(path.join(fx.root, 'tickets.log'), 'utf8').trim().split('\n');

  it('the record says node:crypto was seeded, and the replay triage prints draws the CI attempt ticket again', async () => {
    const run = await fx.vitest(['--retry', '0'], { FLAKEGUARD_SEED: '7' });
    expect(run.exitCode, run.output).toBe(1);
    const dir = path.join(fx.root, '.flakeguard/runs');
    const name = readdirSync(dir).sort().at(-1) ?? '';
    const record = JSON.parse(readFileSync(path.join(dir, name), 'utf8'));
    expect(record).toMatchObject({ runSeed: 7, seedNodeCrypto: true });
    expect(schemaErrors('run-record', record)).toEqual([]);
    const failedSeed = record.tests[0]?.failedSeed as number;
    const triage = await flakeguardInProcess(fx, ['triage', '--record', `.flakeguard/runs/${name}`, '--json']);
    const command = (JSON.parse(triage.stdout) as { findings: Finding[] }).findings[0]?.replay?.command ?? '';
    expect(command).toBe(
      `npx flakeguard replay "test/ticket.test.ts" -t "draws a ticket" --seed ${failedSeed} --seed-node-crypto`,
    );
    const [ci] = tickets();
    const replay = await fx.flakeguard([...shellWords(command), '--times', '3']);
    expect(replay.exitCode, replay.output).toBe(1);
    expect(tickets()).toEqual([ci, ci, ci, ci]);
  }, 120_000);
});
