// One embedded history store created (PGlite's initdb, then flakeguard's migrations) against one
// copy of a created store's folder, the way the e2e tier's fixtures get theirs
// (test/helpers/history-template.ts), and the first open of the copy (what the reporter or the CLI
// then pays, the creation's own open excluded). Alternates creation and copy N times in the same run
// and prints the medians and their ratio: under load both slow down, the ratio stays meaningful.
// Usage: npm run build && node bench/history-store-template.mjs [--runs 5]
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { openHistoryStore } from '../dist/io/history/history-store.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1)
  throw new Error(`--runs "${values.runs}" must be a whole number of at least 1`);

const scratch = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-bench-store-'));
const timed = async (work) => {
  const start = performance.now();
  await work();
  return performance.now() - start;
};
const openAndClose = async (folder) => {
  const store = await openHistoryStore({ kind: 'embedded', folder, lock: `${folder}.lock` });
  await store.close();
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  const template = path.join(scratch, 'template');
  await openAndClose(template);
  const create = [];
  const copy = [];
  const openCopy = [];
  for (let i = 0; i < runs; i += 1) {
    create.push(await timed(() => openAndClose(path.join(scratch, `created-${i}`))));
    const copied = path.join(scratch, `copied-${i}`);
    copy.push(await timed(() => cpSync(template, copied, { recursive: true })));
    openCopy.push(await timed(() => openAndClose(copied)));
  }
  const [c, k, o] = [median(create), median(copy), median(openCopy)];
  console.log(
    `load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, ${runs} of each, medians:`,
  );
  console.log(`  create (initdb + migrate + close): ${c.toFixed(0)} ms`);
  console.log(
    `  copy of the template folder:       ${k.toFixed(0)} ms  (${(c / k).toFixed(0)}x cheaper than a creation)`,
  );
  console.log(
    `  first open of the copy + close:    ${o.toFixed(0)} ms  (a copy pays it on top; a creation includes its own)`,
  );
  console.log(`  creation saved per store: ${(c - k - o).toFixed(0)} ms (create - copy - open)`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
