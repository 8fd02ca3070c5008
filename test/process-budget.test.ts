/**
 * The process budget's mechanism (test/helpers/process-budget-setup.ts) on counter lines written
 * here, and the table's own rule: every line names a test file of the e2e or release tier.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkBudget, sumCounts } from './helpers/process-budget-setup.js';
import { PROCESS_BUDGET } from './process-budget-table.js';

const ROOT = path.resolve(import.meta.dirname, '..');

describe('the process budget', () => {
  it('sums the counter lines per file and kind', () => {
    const sums = sumCounts('test/e2e/a.test.ts\tvitest\ntest/e2e/a.test.ts\tgate\ntest/e2e/a.test.ts\tvitest\n');
    expect(sums.get('test/e2e/a.test.ts')).toEqual({
      gate: 1,
      vitest: 2,
      cli: 0,
      storeCreate: 0,
      storeCopy: 0,
      vitestStarts: 0,
    });
  });

  it('allows two Vitest starts per gate a file ran, and names a file whose gates started more', () => {
    const budgets = { 'test/e2e/a.test.ts': { gate: 2, vitest: 0, cli: 0, storeCreate: 0 } };
    const lines = (starts: number) =>
      ['gate', 'gate', ...Array.from({ length: starts }, () => 'vitestStarts')].map((k) => `test/e2e/a.test.ts\t${k}`);
    expect(checkBudget(sumCounts(lines(4).join('\n')), budgets).over).toEqual([]);
    expect(checkBudget(sumCounts(lines(5).join('\n')), budgets).over).toEqual([
      'test/e2e/a.test.ts: its 2 gate runs started Vitest 5 times, more than 2 per gate (one to list the test files, one for every check)',
    ]);
  });

  it('names a file over its budget or with no line, prints every counted file as a table line, and leaves copies unbudgeted', () => {
    const budgets = { 'test/e2e/a.test.ts': { gate: 1, vitest: 2, cli: 0, storeCreate: 0 } };
    const lines = ['vitest', 'vitest', 'vitest', 'gate', ...Array.from({ length: 50 }, () => 'storeCopy')];
    const counted = [...lines.map((k) => `test/e2e/a.test.ts\t${k}`), 'test/e2e/new.test.ts\tcli'];
    const { table, over } = checkBudget(sumCounts(counted.join('\n')), budgets);
    expect(over).toEqual([
      'test/e2e/a.test.ts: 3 vitest against a budget of 2 (test/process-budget-table.ts)',
      'test/e2e/new.test.ts: counted { gate: 0, vitest: 0, cli: 1, storeCreate: 0 } with no line in test/process-budget-table.ts; add the printed line',
    ]);
    expect(table.slice(1)).toEqual([
      "  'test/e2e/a.test.ts': { gate: 1, vitest: 3, cli: 0, storeCreate: 0 }, // budget: gate: 1, vitest: 2, cli: 0, storeCreate: 0; storeCopy: 50",
      "  'test/e2e/new.test.ts': { gate: 0, vitest: 0, cli: 1, storeCreate: 0 }, // budget: no budget line yet; storeCopy: 0",
    ]);
  });

  it('every budget line names a test file that exists', () => {
    const missing = Object.keys(PROCESS_BUDGET).filter((f) => !existsSync(path.join(ROOT, f)));
    expect(missing).toEqual([]);
  });
});
