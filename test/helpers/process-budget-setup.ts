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
import { KINDS, PROCESS_BUDGET, type ProcessBudget, type ProcessCounts } from '../process-budget-table.js';
import './provided.js';

const BUDGETED = KINDS.filter((k): k is Exclude<typeof k, 'storeCopy'> => k !== 'storeCopy');

/** Sums the counter file's lines per test file. */
export function sumCounts(text: string): Map<string, ProcessCounts> {
  const sums = new Map<string, ProcessCounts>();
  for (const line of text.split('\n').filter(Boolean)) {
    const [file = '', kind = ''] = line.split('\t');
    const counts = sums.get(file) ?? { gate: 0, vitest: 0, cli: 0, storeCreate: 0, storeCopy: 0 };
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
  }
  return { table, over };
}

/** Vitest calls this before a tier's first file; the teardown checks the counts. */
export default function setup(project: TestProject): () => void {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-process-budget-'));
  const counter = path.join(scratch, 'counts.tsv');
  project.provide('processCounter', counter);
  return () => {
    const text = existsSync(counter) ? readFileSync(counter, 'utf8') : '';
    rmSync(scratch, { recursive: true, force: true });
    const { table, over } = checkBudget(sumCounts(text));
    console.log(`\n${table.join('\n')}`);
    if (over.length === 0) return;
    console.error(`over the process budget; make the test cheaper, never raise its line:\n${over.join('\n')}`);
    process.exitCode = 1;
  };
}
