// Per-file timings of a suite run: the top files by wall time, from Vitest's JSON report
// (`--reporter=json --outputFile=...`: each testResults entry has the file's startTime and endTime).
// With two reports (before, after) it prints the top files of the first with both figures side by
// side, and the files only the second has; the lead's before/after table for issue 26.
//
// Usage:
//   npx vitest run --reporter=default --reporter=./src/reporter/index.ts --reporter=json --outputFile.json=/tmp/before.json
//   node bench/suite-file-timings.mjs /tmp/before.json [/tmp/after.json] [--top 15]
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '15' } },
});
const top = Number(values.top);
if (!Number.isInteger(top) || top < 1) throw new Error(`--top "${values.top}" must be a whole number of at least 1`);
if (positionals.length < 1 || positionals.length > 2)
  throw new Error('name one or two Vitest JSON reports: node bench/suite-file-timings.mjs before.json [after.json]');

/** The nearest folder above `file` with a package.json (the clone it ran in), else the current folder. */
function packageRoot(file) {
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir))
    if (existsSync(path.join(dir, 'package.json'))) return dir;
  return process.cwd();
}

/** File (relative to its clone's root, with /, so two clones' reports line up) → seconds from its start to its end. */
function fileSeconds(reportPath) {
  const report = JSON.parse(readFileSync(reportPath, 'utf8'));
  if (!Array.isArray(report.testResults))
    throw new Error(`${reportPath} has no testResults: write it with --reporter=json --outputFile.json=<file>`);
  const seconds = new Map();
  for (const r of report.testResults) {
    const rel = path.relative(packageRoot(r.name), r.name).split(path.sep).join('/');
    seconds.set(rel, (r.endTime - r.startTime) / 1000);
  }
  const wall =
    (Math.max(...report.testResults.map((r) => r.endTime)) - Math.min(...report.testResults.map((r) => r.startTime))) /
    1000;
  return { seconds, wall, files: report.testResults.length };
}

const fmt = (s) => (s === undefined ? '-' : `${s.toFixed(1)} s`);
const [first, second] = positionals.map(fileSeconds);
const ranked = [...first.seconds].sort((a, b) => b[1] - a[1]).slice(0, top);
const rows = [
  second ? '| file | before | after |' : '| file | seconds |',
  second ? '| --- | ---: | ---: |' : '| --- | ---: |',
];
for (const [file, s] of ranked)
  rows.push(second ? `| ${file} | ${fmt(s)} | ${fmt(second.seconds.get(file))} |` : `| ${file} | ${fmt(s)} |`);
if (second) {
  const added = [...second.seconds].filter(([f]) => !first.seconds.has(f)).sort((a, b) => b[1] - a[1]);
  for (const [file, s] of added.slice(0, top)) rows.push(`| ${file} (new) | - | ${fmt(s)} |`);
}
const sum = (m) => [...m.values()].reduce((a, b) => a + b, 0);
rows.push(
  second
    ? `| all files (${first.files} / ${second.files}), summed | ${fmt(sum(first.seconds))} | ${fmt(sum(second.seconds))} |`
    : `| all ${first.files} files, summed | ${fmt(sum(first.seconds))} |`,
);
rows.push(
  second
    ? `| first start to last end | ${fmt(first.wall)} | ${fmt(second.wall)} |`
    : `| first start to last end | ${fmt(first.wall)} |`,
);
console.log(rows.join('\n'));
