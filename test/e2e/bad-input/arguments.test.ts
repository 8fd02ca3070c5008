/**
 * Bad input catalogue, part 1: command-line values and paths. Needs `npm run build`.
 * Each case: exit 2, one line naming the value and the fix, no user file changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fixture } from '../../helpers/fixture.js';
import { runCliInProcess } from '../../helpers/in-process-cli.js';
import { A_ADDS, A_OLD, createGateFixture, gateAtNoSlowdown } from '../gate-fixtures.js';
import { expectBadInputInProcess as expectBadInput, hashFiles, messageLine } from './catalogue.js';

let fx: Fixture;
beforeAll(async () => {
  fx = await createGateFixture(
    { 'test/a.test.ts': A_ADDS },
    { 'test/a.test.ts': A_OLD, 'reports/run.json': '{}', 'notes.txt': 'a regular file\n' },
  );
});
afterAll(() => fx.remove());

describe('bad values on the command line', () => {
  it.each([
    [
      ['gate', '--tries', '-1'],
      ['--tries "-1"', 'must be a whole number from 1 to 1000'],
    ],
    [
      ['gate', '--load', '-2'],
      ['--load "-2"', 'must be auto, 0 (no load) or a number of workers'],
    ],
    [
      ['gate', '--budget', '-1s'],
      ['--budget "-1s"', 'write 250ms, 5s, 1.5s or 2m'],
    ],
    [
      ['gate', '--tries', 'five'],
      ['--tries "five"', 'must be a whole number from 1 to 1000'],
    ],
    [
      ['triage', '--rerun', '-1', '--report', 'reports/run.json'],
      ['--rerun "-1"', 'must be a whole number of at least 1'],
    ],
    [
      ['triage', '--exit-code', '-3', '--report', 'reports/run.json'],
      ['--exit-code "-3"', 'must be a whole number of at least 0'],
    ],
    [
      ['triage', '--budget', '5 sec', '--report', 'reports/run.json'],
      ['--budget "5 sec"', 'write 250ms, 5s, 1.5s or 2m'],
    ],
    [
      ['allowances', 'add', '--file', 'test/a.test.ts', '--test', 'adds', '--budget', '-1s', '--reason', 'r'],
      ['"-1s"', 'write 250ms, 5s, 1.5s or 2m'],
    ],
    [
      ['gate', '--no-such-flag'],
      ['--no-such-flag', 'flakeguard gate --help'],
    ],
    [
      ['gate', '--runs', '3', '--tries', '3'],
      ['--runs is the old name of --tries; give only --tries', 'flakeguard gate --help'],
    ],
    [
      ['gate', '--max-tries', '4', '--max-runs', '4'],
      ['--max-runs is the old name of --max-tries; give only --max-tries', 'flakeguard gate --help'],
    ],
    [
      ['gate', '--runs', '-1'],
      ['--tries "-1"', 'must be a whole number from 1 to 1000'],
    ],
    [['gaet'], ['unknown command "gaet"', 'use one of gate, triage, replay, allowances']],
    [['x'.repeat(4000)], [`unknown command "${'x'.repeat(60)}…" (4000 characters)`]],
  ])('flakeguard %j', async (args, names) => {
    await expectBadInput(fx, args, { exit: 2, names });
  });
});

describe('the old names of renamed options', () => {
  it('gate --runs and --max-runs still work, each with one line on stderr saying what to write', async () => {
    const run = await runCliInProcess(fx.root, ['gate', '--plan', '--base', 'main', '--runs', '2', '--max-runs', '4']);
    expect(run.exitCode, run.output).toBe(0);
    const notices = run.stderr.split('\n').filter((l) => l.includes('renamed'));
    expect(notices).toEqual([
      'flakeguard gate: --runs is renamed --tries; write --tries 2',
      'flakeguard gate: --max-runs is renamed --max-tries; write --max-tries 4',
    ]);
    expect(JSON.parse(run.stdout).limits).toMatchObject({ tries: 2, maxTries: 4 });
  });
});

describe('a folder or a missing file where a file is expected', () => {
  it.each(['--record', '--report', '--junit', '--log'])(
    'triage %s <folder>: a usage error naming the path',
    async (flag) => {
      await expectBadInput(fx, ['triage', flag, 'reports'], {
        exit: 2,
        names: [`${flag} reports: is a directory`, '; expected '],
      });
    },
  );

  it('allowances add --file <folder>', async () => {
    await expectBadInput(
      fx,
      ['allowances', 'add', '--file', 'test', '--test', 'adds', '--budget', '1s', '--reason', 'r'],
      { exit: 2, names: ['--file test is a folder', 'pass a file'] },
    );
  });

  it('allowances add --file <missing file>', async () => {
    await expectBadInput(
      fx,
      ['allowances', 'add', '--file', 'test/gone.test.ts', '--test', 'adds', '--budget', '1s', '--reason', 'r'],
      { exit: 2, names: ['test/gone.test.ts', 'no such test file'] },
    );
  });

  it('gate --merge <folder>', async () => {
    await expectBadInput(fx, ['gate', '--merge', 'reports'], {
      exit: 2,
      names: ['--merge reports is a folder', 'pass a file'],
    });
  });
});

describe('a report file that cannot be written: the report is still printed, exit 2', () => {
  it('gate --markdown under a regular file: the verdict on stdout, the path and the reason on stderr', async () => {
    const before = hashFiles(fx.root);
    const run = await fx.flakeguard(gateAtNoSlowdown(1, 0, '--base', 'main', '--markdown', 'notes.txt/gate.md'));
    expect(run.exitCode, run.output).toBe(2);
    expect(run.stdout).toContain('adds');
    expect(messageLine(run)).toBe(
      'flakeguard: --markdown notes.txt/gate.md: the report was printed to stdout but not written: notes.txt exists as a file where a folder is needed; check the path',
    );
    expect(hashFiles(fx.root)).toEqual(before);
  });

  it('gate --html under a regular file', async () => {
    const run = await expectBadInput(fx, ['gate', '--base', 'HEAD', '--html', 'notes.txt/gate.html'], {
      exit: 2,
      names: ['--html notes.txt/gate.html', 'printed to stdout', 'notes.txt exists as a file'],
    });
    expect(run.stdout).toContain('nothing to run');
  });

  it('triage --markdown and --html under a regular file', async () => {
    fx.write(
      'reports/junit.xml',
      '<testsuites><testsuite name="a"><testcase classname="test/a.test.ts" name="adds"><failure message="boom">boom</failure></testcase></testsuite></testsuites>\n',
    );
    try {
      for (const flag of ['--markdown', '--html']) {
        const run = await expectBadInput(fx, ['triage', '--junit', 'reports/junit.xml', flag, 'notes.txt/triage.out'], {
          exit: 2,
          names: [`${flag} notes.txt/triage.out`, 'printed to stdout'],
        });
        expect(run.stdout).toContain('adds');
      }
    } finally {
      fx.write('reports/junit.xml', '');
    }
  });
});
