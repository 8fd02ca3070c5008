/**
 * Bad input catalogue, class 5 (issue 19): every command validates all its inputs and settings
 * (environment, flags, dates, numbers and durations with bounds) before it starts any work. Each
 * case: exit 2, one line naming the value and the fix, no try run, no user file changed.
 * Needs `npm run build`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fixture } from '../../helpers/fixture.js';
import { A_ADDS_EMPTY, A_OLD, createGateFixture } from '../gate-fixtures.js';
import { expectBadInputInProcess as expectBadInput } from './catalogue.js';

const JUNIT =
  '<testsuites name="vitest tests"><testsuite name="test/a.test.ts"><testcase classname="test/a.test.ts" name="adds"><failure message="boom">boom</failure></testcase></testsuite></testsuites>\n';
const ADD = ['--file', 'test/a.test.ts', '--test', 'adds'];

let fx: Fixture;
beforeAll(async () => {
  fx = await createGateFixture(
    { 'test/a.test.ts': A_ADDS_EMPTY },
    { 'test/a.test.ts': A_OLD, 'flakeguard.yaml': 'history: true\n', 'reports/junit.xml': JUNIT },
  );
});
afterAll(() => fx.remove());

describe('a bad FLAKEGUARD_HISTORY_URL stops every command that reads it before any work', () => {
  const env = { FLAKEGUARD_HISTORY_URL: 'mysql://db.example/flakes' };
  it.each([
    [['gate', '--base', 'main', '--tries', '1', '--load', '0']],
    [['gate', '--base', 'main', '--tries', '1', '--load', '0', '--json']],
    [['triage', '--junit', 'reports/junit.xml']],
    [['triage', '--junit', 'reports/junit.xml', '--rerun', '2']],
    [['history']],
    [['history', 'ingest', 'reports/no-such-folder']],
    [['history', 'prune', '--keep', '30d']],
  ])('flakeguard %j', async (args) => {
    const run = await expectBadInput(fx, args, {
      exit: 2,
      names: ['FLAKEGUARD_HISTORY_URL="mysql://db.example/flakes" is not a PostgreSQL URL', 'postgres://'],
      env,
    });
    // Nothing started: no try, no re-run, no report.
    expect(run.stderr).not.toMatch(/gate tries:|try 1\/|re-running/);
    expect(run.stdout).toBe('');
  });
});

describe('numbers, durations and dates are bounded, and named when refused', () => {
  it.each([
    [
      ['history', 'prune', '--keep', '99999999d'],
      ['--keep "99999999d" is more than 36500d (100 years)', 'write a number of days or weeks'],
    ],
    [['history', '--since', '99999999d'], ['--since "99999999d" is more than 36500d (100 years)']],
    [['history', '--since', '99999999w'], ['--since "99999999w" is more than 36500d']],
    [
      ['history', 'prune', '--keep', '-1d'],
      ['--keep "-1d" is not an age', 'write a number of days or weeks'],
    ],
    [['history', '--since', '-1d'], ['--since "-1d" is not an age']],
    [['history', '--since', '2999-01-01'], ['--since "2999-01-01" is in the future']],
    [['history', 'prune', '--keep', '2999-01-01'], ['--keep "2999-01-01" is in the future']],
    [['history', '--top', '99999999999'], ['--top "99999999999" must be a whole number from 1 to 10000']],
    [
      ['history', '--release-after', '99999999999999999999'],
      ['--release-after "99999999999999999999" must be a whole number of runs from 1 to 10000'],
    ],
    [['gate', '--budget', '99999999h'], ['--budget "99999999h" is more than 24h']],
    [['gate', '--time-budget', '99999999h'], ['--time-budget "99999999h" is more than 24h']],
    [['gate', '--tries', '99999999'], ['--tries "99999999" must be a whole number from 1 to 1000']],
    [
      ['gate', '--shard', '1/99999999999'],
      ['--shard "1/99999999999" is not a shard', 'count <= 1000'],
    ],
    [
      ['triage', '--junit', 'reports/junit.xml', '--rerun', '99999999'],
      ['--rerun "99999999" must be a whole number from 1 to 100'],
    ],
    [
      ['triage', '--junit', 'reports/junit.xml', '--exit-code', '256'],
      ['--exit-code "256" must be a whole number from 0 to 255'],
    ],
    [['triage', '--junit', 'reports/junit.xml', '--budget', '99999999h'], ['--budget "99999999h" is more than 24h']],
    [['allowances', 'add', ...ADD, '--budget', '99999999h', '--reason', 'r'], ['"99999999h" is more than 24h']],
    [
      ['allowances', 'add', ...ADD, '--budget', '2s', '--reason', 'r', '--expires', '2020-01-01'],
      ['--expires "2020-01-01" is in the past', 'leave --expires out'],
    ],
    [
      ['quarantine', 'add', ...ADD, '--reason', 'r', '--expires', '2020-01-01'],
      ['--expires "2020-01-01" is in the past'],
    ],
    [
      ['quarantine', 'add', ...ADD, '--reason', 'r', '--expires', '2027-02-30'],
      ['--expires "2027-02-30" is not a date'],
    ],
  ])('flakeguard %j', async (args, names) => {
    const run = await expectBadInput(fx, args, { exit: 2, names });
    expect(run.stderr).not.toMatch(/gate tries:|try 1\//);
  });
});
