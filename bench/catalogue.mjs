// The bad-input catalogue of issue 19, runnable: each case runs in a temp folder of its own and
// prints one line: class, case, exit code, the first message line, the files it changed, and the
// case's own check (a leaked password, a control character or a workflow command on the output).
// The cases are tables, one file per class under bench/catalogue/ (class-2.mjs, ...): add a class
// by adding its file to CLASSES below. A case is { class, case, command, setup?, env?, check? }:
//   command  the flakeguard arguments, or ['vitest'] for a Vitest run with flakeguard's reporter
//   setup    (dir) => void | Promise: writes what the case needs (files, links, FIFOs) into dir
//   reader   a path in dir to read from while the command runs (a FIFO needs its reader)
//   check    (run) => string: '' when the rule holds, else what broke
// Classes 5-7 (validate before work, wrong answers, stores and locks) need a git fixture with a
// branch and history on: their table (catalogue/classes-5-7.mjs) has its own runner
// (catalogue/run-cases.mjs), started from here so one command prints the whole catalogue.
// Run: npm run build && node bench/catalogue.mjs [class...]   (e.g. node bench/catalogue.mjs 3)
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { CASES as CLASS_2 } from './catalogue/class-2.mjs';
import { CASES as CLASS_3 } from './catalogue/class-3.mjs';
import { CASES as CLASS_4 } from './catalogue/class-4.mjs';
import { runCase } from './catalogue/run-case.mjs';

const CLASSES = [...CLASS_2, ...CLASS_3, ...CLASS_4];
const wanted = process.argv.slice(2).map(Number);
const cases = wanted.length === 0 ? CLASSES : CLASSES.filter((c) => wanted.includes(c.class));

let broken = 0;
for (const c of cases) {
  const r = await runCase(c);
  if (r.problem !== '') broken += 1;
  const changed = r.changed.length === 0 ? 'no file changed' : `changed: ${r.changed.join(', ')}`;
  console.log(
    `class ${c.class} | ${c.case} | exit ${r.exitCode} | ${r.message || '(no message)'} | ${changed} | ${r.problem === '' ? 'OK' : `BROKEN: ${r.problem}`}`,
  );
}
console.log(`classes 2-4: ${cases.length} cases, ${cases.length - broken} OK, ${broken} broken`);
let laterFailed = false;
if (wanted.length === 0 || wanted.some((n) => n >= 5 && n <= 7)) {
  const later = spawnSync(process.execPath, [path.join(import.meta.dirname, 'catalogue/run-cases.mjs')], {
    stdio: 'inherit',
  });
  laterFailed = later.status !== 0;
}
process.exitCode = broken === 0 && !laterFailed ? 0 : 1;
