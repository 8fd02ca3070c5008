// Exports that no other file imports, found by knip (knip.jsonc), held against the list in
// scripts/unused-exports.txt as a ratchet: the list may shrink, never grow. A new export that no
// other file imports fails `npm run lint` with its name and the fix; a listed one that is now
// imported (or gone) fails until its line is removed, so the list keeps today's count honest.
// Usage: node scripts/unused-exports.mjs   (exit 0 clean, 1 a new or a stale line, 2 knip could not run)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LIST = 'scripts/unused-exports.txt';
const knip = path.join(ROOT, 'node_modules/knip/bin/knip.js');

/** knip's JSON report (it exits 1 when it finds something; its stdout is the report either way). */
function runKnip() {
  const args = [knip, '--include', 'exports,types', '--reporter', 'json', '--no-progress'];
  try {
    return execFileSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  } catch (error) {
    if (typeof error.stdout === 'string' && error.stdout.trim().startsWith('{')) return error.stdout;
    process.stderr.write(`${error.stderr ?? error.message}\nunused-exports: knip could not run; fix the error above\n`);
    process.exit(2);
  }
}

const found = new Map();
for (const issue of JSON.parse(runKnip()).issues) {
  for (const kind of ['exports', 'types']) {
    for (const e of issue[kind] ?? []) found.set(`${issue.file} ${e.name}`, `${issue.file}:${e.line}:${e.col}`);
  }
}
const listed = new Set(
  readFileSync(path.join(ROOT, LIST), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#')),
);
const problems = [];
for (const [key, where] of found) {
  if (listed.has(key)) continue;
  const name = key.split(' ')[1];
  problems.push(
    `${where}: ${name} is exported but no other file imports it: drop \`export\` (delete it if its own file does not use it either), or import it where it is needed. ${LIST} lists today's only to shrink`,
  );
}
for (const key of listed) {
  if (!found.has(key))
    problems.push(`${LIST}: "${key}" is imported elsewhere now, or gone: remove its line (the list only shrinks)`);
}
if (problems.length > 0) {
  process.stderr.write(`${problems.join('\n')}\n`);
  process.exit(1);
}
console.log(`unused exports: ${found.size}, all listed in ${LIST} (the list only shrinks); none new`);
