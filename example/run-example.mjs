#!/usr/bin/env node
/**
 * Runs flakeguard's main jobs on the embedded example suite, in a scratch git repository:
 *   1. the reporter's budget report on a red run (over budget, near budget, an allowance applied),
 *   2. triage of that red run,
 *   3. an allowance that follows its test through history, a rename then a body edit (and `allowances migrate`),
 *   4. the pre-merge gate on a branch that adds tests (cold tries: each a fresh Vitest worker).
 * Each step checks that flakeguard said what it should; the script exits 1 if one did not.
 * Usage: npm run example  (builds first).  KEEP=1 keeps the scratch folder.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';

const repo = path.resolve(import.meta.dirname, '..');
const cli = path.join(repo, 'dist/cli.js');
const vitestBin = path.join(repo, 'node_modules/vitest/vitest.mjs');
const work = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-example-'));
const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 'example',
  GIT_AUTHOR_EMAIL: 'example@example.invalid',
  GIT_COMMITTER_NAME: 'example',
  GIT_COMMITTER_EMAIL: 'example@example.invalid',
  FORCE_COLOR: '0',
  NO_COLOR: '1',
};
delete env.GITHUB_ACTIONS;
delete env.GITHUB_STEP_SUMMARY;
const problems = [];

function banner(title) {
  process.stdout.write(`\n${'='.repeat(100)}\n== ${title}\n${'='.repeat(100)}\n`);
}

async function run(label, file, args, { expectExit } = {}) {
  process.stdout.write(`\n$ ${label}\n`);
  const result = await execa(file, args, { cwd: work, env, reject: false, all: true, stdin: 'ignore' });
  process.stdout.write(`${result.all}\n[exit ${result.exitCode}]\n`);
  if (expectExit !== undefined && result.exitCode !== expectExit)
    problems.push(`"${label}" exited ${result.exitCode}, expected ${expectExit}`);
  return result;
}

function expectText(result, text, what) {
  if (!String(result.all).includes(text))
    problems.push(`${what}: expected the output to contain ${JSON.stringify(text)}`);
}

const git = (...args) => execa('git', args, { cwd: work, env });
const vitest = (args, opts) =>
  run(`vitest run ${args.join(' ')}`.trim(), process.execPath, [vitestBin, 'run', ...args], opts);
const flakeguard = (args, opts) => run(`flakeguard ${args.join(' ')}`, process.execPath, [cli, ...args], opts);

function setUpScratch() {
  cpSync(path.join(repo, 'example'), work, {
    recursive: true,
    filter: (src) => !src.endsWith('run-example.mjs') && !src.includes('.flakeguard'),
  });
  // The example resolves `flakeguard/reporter` like a user's project does: through node_modules.
  mkdirSync(path.join(work, 'node_modules'));
  for (const entry of readdirSync(path.join(repo, 'node_modules'))) {
    symlinkSync(path.join(repo, 'node_modules', entry), path.join(work, 'node_modules', entry));
  }
  symlinkSync(repo, path.join(work, 'node_modules', 'flakeguard'));
  writeFileSync(path.join(work, '.gitignore'), 'node_modules\n.flakeguard\n');
}

function newestRecord() {
  const dir = path.join(work, '.flakeguard/runs');
  const files = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .sort()
    : [];
  return files.length ? path.join('.flakeguard/runs', files[files.length - 1]) : null;
}

function edit(rel, from, to) {
  const file = path.join(work, rel);
  const text = readFileSync(file, 'utf8');
  if (!text.includes(from)) throw new Error(`example edit: ${rel} does not contain ${from}`);
  writeFileSync(file, text.replace(from, to));
}

async function main() {
  setUpScratch();
  await git('init', '-q', '-b', 'main');
  await git('add', '-A');
  await git('commit', '-qm', 'base: the example suite');
  process.stdout.write(`flakeguard example in ${work}\n`);

  banner('1. The reporter: every test and file against its budget (500ms in this example)');
  const red = await vitest([], { expectExit: 1 });
  expectText(red, 'search > indexes the catalogue', 'budget report names the test over budget');
  expectText(red, 'near budget', 'budget report warns about the near-budget test');

  banner('2. Triage of that red run: one class per failure, with evidence');
  const record = newestRecord();
  if (!record) problems.push('the reporter wrote no run record');
  const triage = await flakeguard(['triage', '--record', record ?? 'missing.json', '--exit-code', '1'], {
    expectExit: 1,
  });
  expectText(triage, 'budget', 'triage classifies the red run as budget');

  banner('3. An allowance follows its test through history: a rename, then a body edit');
  // migrate records the commit the allowance is true at; lineage starts there.
  await flakeguard(['allowances', 'migrate'], { expectExit: 0 });
  await git('commit', '-qam', 'record where the allowance is true');
  await git('checkout', '-q', '-b', 'feature');
  edit('test/tracker.test.ts', "it('reloads journal'", "it('reloads the journal'");
  edit('test/search.test.ts', 'await sleep(620);', 'await sleep(5);');
  await git('commit', '-qam', 'rename a test; speed up search');
  edit('test/tracker.test.ts', 'expect([1, 2, 3].length).toBe(3);', 'expect([1, 2, 3]).toHaveLength(3);');
  await git('commit', '-qam', 'edit the renamed test');
  const renamed = await vitest([], { expectExit: 0 });
  expectText(renamed, 'follows renamed test', 'the reporter says the allowance followed the rename');
  expectText(renamed, 'traced through git history', 'through the rename and the body edit, one commit each');
  await flakeguard(['allowances', 'migrate'], { expectExit: 0 });
  await flakeguard(['allowances', 'list'], { expectExit: 0 });

  banner(
    '4. The pre-merge gate: new and changed tests, 5 to 10 cold tries each (a fresh worker per try), at a controlled slowdown (plus one busy worker)',
  );
  writeFileSync(
    path.join(work, 'test/checkout.test.ts'),
    `import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sleep } from './sleep.js';

// A counter on disk, so the flaky test fails on a fixed share of its tries (2 of 5).
const counterFile = '.flakeguard/checkout-counter';
function nextTry(): number {
  mkdirSync('.flakeguard', { recursive: true });
  let n = 0;
  try { n = Number(readFileSync(counterFile, 'utf8')); } catch {}
  writeFileSync(counterFile, String(n + 1));
  return n + 1;
}

describe('checkout', () => {
  it('applies a coupon', () => {
    expect(Math.round(100 * 0.9)).toBe(90);
  });

  it('confirms the payment', () => {
    const attempt = nextTry();
    expect(attempt % 3, 'payment confirmation raced the webhook').not.toBe(2);
  });

  it('renders the receipt', async () => {
    await sleep(430);
    expect('receipt').toHaveLength(7);
  });
});
`,
  );
  await git('add', '-A');
  await git('commit', '-qm', 'checkout tests');
  const gate = await flakeguard(['gate', '--base', 'main', '--tries', '5', '--load', '1'], { expectExit: 1 });
  expectText(gate, 'flaky', 'the gate finds the flaky test');
  expectText(gate, 'near-budget', 'the gate finds the near-budget test');

  banner('Summary');
  if (problems.length > 0) {
    process.stdout.write(`The example did not show what it should:\n${problems.map((p) => `  - ${p}`).join('\n')}\n`);
    return 1;
  }
  process.stdout.write(
    'Every step showed what it should: budget report, triage, an allowance following a rename, the gate verdict.\n',
  );
  return 0;
}

let code = 2;
try {
  code = await main();
} catch (error) {
  process.stderr.write(`example failed to run: ${error instanceof Error ? error.stack : String(error)}\n`);
} finally {
  if (process.env.KEEP) process.stdout.write(`kept ${work}\n`);
  else rmSync(work, { recursive: true, force: true });
}
process.exitCode = code;
