/**
 * One spawned run of the built CLI per command: the argument, validation and config tables run the
 * CLI in their own process (test/helpers/in-process-cli.ts), so this file keeps what only a real
 * process shows: dist/cli.js loads each command, maps its error to one stderr line and the exit code
 * through src/cli.ts (the one exit point), and exits. Needs `npm run build`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type Fixture } from '../helpers/fixture.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { expectBadInput } from './bad-input/catalogue.js';

const ADD = ['--file', 'test/a.test.ts', '--test', 'adds'];
let fx: Fixture;
beforeAll(async () => {
  fx = await createFixture({
    files: { 'reports/run.json': '{}', 'test/a.test.ts': "import { it } from 'vitest';\nit('adds', () => {});\n" },
  });
});
afterAll(() => fx.remove());

describe('the built CLI, spawned: each command exits through src/cli.ts', () => {
  it.each([
    [
      ['gate', '--tries', 'five'],
      ['--tries "five"', 'must be a whole number from 1 to 1000'],
    ],
    [['triage', '--exit-code', '-3', '--report', 'reports/run.json'], ['--exit-code "-3"']],
    [
      ['allowances', 'add', ...ADD, '--budget', '-1s', '--reason', 'r'],
      ['"-1s"', 'write 250ms, 5s, 1.5s or 2m'],
    ],
    [
      ['quarantine', 'add', ...ADD, '--reason', 'r', '--expires', '2027-02-30'],
      ['--expires "2027-02-30" is not a date'],
    ],
    [['history', '--top', '99999999999'], ['--top "99999999999" must be a whole number from 1 to 10000']],
    [['init', '--no-such-flag'], ['--no-such-flag']],
    [['gaet'], ['unknown command "gaet"', 'use one of gate, triage, replay, allowances']],
  ])('flakeguard %j: exit 2, one line', async (args, names) => {
    const spawned = await expectBadInput(fx, args, { exit: 2, names });
    // The in-process harness gives the same answer, byte for byte.
    const inProcess = await runCliInProcess(fx.root, args);
    expect([inProcess.exitCode, inProcess.stdout, inProcess.stderr]).toEqual([
      spawned.exitCode,
      spawned.stdout,
      spawned.stderr,
    ]);
  });

  it('--version and --help exit 0', async () => {
    const version = await fx.flakeguard(['--version']);
    expect(version.exitCode).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+/);
    const help = await fx.flakeguard(['gate', '--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('--plan');
  });
});
