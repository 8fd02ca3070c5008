/**
 * Bad input catalogue: durations that round to zero (issue 48, finding 8). Durations are kept to the
 * thousandth of a millisecond, so 0.0004ms would become a zero budget that every test exceeds (and
 * `allowances add` would write `budget: 0ms`, which every later read refuses). Needs `npm run build`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Fixture } from '../../helpers/fixture.js';
import { A_ADDS, A_OLD, createGateFixture } from '../gate-fixtures.js';
import { expectBadInputInProcess as expectBadInput } from './catalogue.js';

let fx: Fixture;
beforeAll(async () => {
  fx = await createGateFixture({ 'test/a.test.ts': A_ADDS }, { 'test/a.test.ts': A_OLD, 'flakeguard.yaml': '' });
});
afterAll(() => fx.remove());
afterEach(() => fx.write('flakeguard.yaml', ''));

const ROUNDS = ['"0.0004ms" rounds to 0ms', 'at least 0.001ms'];

describe('a duration that rounds to zero is refused, with the value and the shortest accepted', () => {
  it.each([
    [['gate', '--base', 'main', '--time-budget', '0.0004ms'], '--time-budget'],
    [['gate', '--base', 'main', '--budget', '0.0004ms'], '--budget'],
    [
      ['allowances', 'add', '--file', 'test/a.test.ts', '--test', 'adds', '--budget', '0.0004ms', '--reason', 'r'],
      '--budget',
    ],
  ])('flakeguard %j', async (args, flag) => {
    await expectBadInput(fx, args, { exit: 2, names: [flag, ...ROUNDS] });
  });

  it('budget.test: 0.0004ms in flakeguard.yaml, with its place', async () => {
    fx.write('flakeguard.yaml', 'budget:\n  test: 0.0004ms\n');
    await expectBadInput(fx, ['allowances', 'check'], {
      exit: 2,
      names: ['flakeguard.yaml:2:9', 'budget.test', ...ROUNDS],
    });
  });

  it('the shortest accepted duration is written back as it was given and read again', async () => {
    const copy = fx.copy();
    try {
      const args = ['allowances', 'add', '--file', 'test/a.test.ts', '--test', 'adds', '--reason', 'r'];
      const added = await copy.flakeguard([...args, '--budget', '0.001ms', '--expires', '2099-01-01']);
      expect(added.exitCode, added.output).toBe(0);
      const check = await copy.flakeguard(['allowances', 'check']);
      expect(check.exitCode, check.output).toBe(0);
    } finally {
      copy.remove();
    }
  });
});
