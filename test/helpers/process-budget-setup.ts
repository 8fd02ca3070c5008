/**
 * The process budget of the e2e and release tiers, checked like the layer table: per test file, how
 * many whole gates, fixture Vitest runs, other CLI spawns and embedded-store creations it pays, at
 * most what PROCESS_BUDGET (test/process-budget-table.ts) allows. Counted at run time, not by reading
 * the tests: a call site in a loop, an `it.each` table or a helper that wraps a helper runs many
 * times, and a static count of call sites is fooled by all three. The spawning helpers
 * (test/helpers/fixture.ts, packed.ts) call `countProcess`, which appends one line to a counter file
 * this global setup names (`provide`/`inject`, Vitest's documented channel from a global setup to
 * the test workers, in 4.1 and 5); the teardown, after the last file, sums the lines per file,
 * prints the table, and fails the run (exit code 1: a thrown error in a teardown only prints) when
 * a file is over its budget.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import {
  KINDS,
  PROCESS_BUDGET,
  type ProcessBudget,
  type ProcessCounts,
  VITEST_STARTS_PER_GATE,
} from '../process-budget-table.js';
import { sharePerRun } from './per-run.js';
import './provided.js';

const BUDGETED = KINDS.filter(
  (k): k is Exclude<typeof k, 'storeCopy' | 'vitestStarts'> => k !== 'storeCopy' && k !== 'vitestStarts',
);

/** Sums the counter file's lines per test file. */
export function sumCounts(text: string): Map<string, ProcessCounts> {
  const sums = new Map<string, ProcessCounts>();
  for (const line of text.split('\n').filter(Boolean)) {
    const [file = '', kind = ''] = line.split('\t');
    const counts = sums.get(file) ?? { gate: 0, vitest: 0, cli: 0, storeCreate: 0, storeCopy: 0, vitestStarts: 0 };
    if ((KINDS as readonly string[]).includes(kind)) counts[kind as (typeof KINDS)[number]] += 1;
    sums.set(file, counts);
  }
  return sums;
}

/** The lines of the printed table and the problems: over budget, or counted with no budget line. */
export function checkBudget(
  sums: ReadonlyMap<string, ProcessCounts>,
  budgets: Readonly<Record<string, ProcessBudget>> = PROCESS_BUDGET,
): { table: string[]; over: string[] } {
  const table = ['process budget: the counts of this run as lines of test/process-budget-table.ts, then the budget'];
  const over: string[] = [];
  for (const [file, counts] of [...sums].sort((a, b) => a[0].localeCompare(b[0]))) {
    const budget = budgets[file];
    const line = BUDGETED.map((k) => `${k}: ${counts[k]}`).join(', ');
    const was = budget ? BUDGETED.map((k) => `${k}: ${budget[k]}`).join(', ') : 'no budget line yet';
    table.push(`  '${file}': { ${line} }, // budget: ${was}; storeCopy: ${counts.storeCopy}`);
    if (!budget) {
      over.push(`${file}: counted { ${line} } with no line in test/process-budget-table.ts; add the printed line`);
      continue;
    }
    for (const k of BUDGETED)
      if (counts[k] > budget[k])
        over.push(`${file}: ${counts[k]} ${k} against a budget of ${budget[k]} (test/process-budget-table.ts)`);
    if (counts.vitestStarts > VITEST_STARTS_PER_GATE * counts.gate)
      over.push(
        `${file}: its ${counts.gate} gate runs started Vitest ${counts.vitestStarts} times, more than ${VITEST_STARTS_PER_GATE} per gate (one to list the test files, one for every check)`,
      );
  }
  return { table, over };
}

/** The counts of the run: printed, and the run failed when a file is over its budget. */
function report(counter: string): void {
  const text = existsSync(counter) ? readFileSync(counter, 'utf8') : '';
  const { table, over } = checkBudget(sumCounts(text));
  console.log(`\n${table.join('\n')}`);
  if (over.length === 0) return;
  console.error(`over the process budget; make the test cheaper, never raise its line:\n${over.join('\n')}`);
  process.exitCode = 1;
}

/**
 * Vitest calls this before a tier's first file, once per project of the tier: one counter file per
 * run (per-run.ts), checked by the teardown after the tier's last file.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const counter = await sharePerRun('process-counter', async () => {
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-process-budget-'));
    const file = path.join(scratch, 'counts.tsv');
    const dispose = (): void => {
      report(file);
      rmSync(scratch, { recursive: true, force: true });
    };
    return { value: file, dispose };
  });
  project.provide('processCounter', counter.value);
  return counter.release;
}
