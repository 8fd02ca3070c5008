#!/usr/bin/env node
/**
 * What history costs triage: a fixture project (git, `history: true`) is run <runs> times with the
 * real Vitest and flakeguard's reporter (a test that fails every other run, a test broken by the
 * last commit), then `flakeguard triage --json` of the last red run is timed with history and with
 * --no-history, alternating, <rounds> times each; prints the medians and their ratio (the baseline,
 * --no-history, is measured in the same run) and checks both classify the same failures.
 *
 *   npm run build && node bench/triage-history.mjs            # 7 runs, 5 rounds
 *   options: --runs N --rounds N
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { median } from 'simple-statistics';

const REPO = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: { runs: { type: 'string', default: '7' }, rounds: { type: 'string', default: '5' } },
});
// Odd, so that the flaky test (failing every other run) fails in the last, red run.
const runs = Number(values.runs) | 1;
const rounds = Number(values.rounds);
const root = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-bench-th-'));
const env = {
  ...process.env,
  FLAKEGUARD_BRANCH: 'main',
  NO_COLOR: '1',
  CI: 'true',
  GIT_AUTHOR_NAME: 'b',
  GIT_AUTHOR_EMAIL: 'b@b',
  GIT_COMMITTER_NAME: 'b',
  GIT_COMMITTER_EMAIL: 'b@b',
};
for (const k of Object.keys(env))
  if (k.startsWith('VITEST') || k === 'NODE_OPTIONS' || k === 'FLAKEGUARD_HISTORY_URL') delete env[k];
const write = (rel, text) => {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
};
const run = (cmd, args, reject = false) => execa(cmd, args, { cwd: root, env, extendEnv: false, reject });
try {
  symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  write('.gitignore', 'node_modules\n.flakeguard\n');
  write('flakeguard.yaml', 'history: true\n');
  write(
    'vitest.config.ts',
    `import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { reporters: ['default', ${JSON.stringify(path.join(REPO, 'dist/reporter/index.js'))}] } });\n`,
  );
  write('src/value.js', 'export const value = 1;\n');
  write(
    'test/value.test.ts',
    "import { expect, test } from 'vitest';\nimport { value } from '../src/value.js';\ntest('value is one', () => { expect(value).toBe(1); });\n",
  );
  write(
    'test/flaky.test.ts',
    `import { expect, test } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
test('polls the queue', () => {
  mkdirSync(new URL('../.flakeguard/', import.meta.url), { recursive: true });
  const file = new URL('../.flakeguard/tries', import.meta.url);
  const tries = existsSync(file) ? Number(readFileSync(file, 'utf8')) : 0;
  writeFileSync(file, String(tries + 1));
  expect(tries % 2).toBe(1);
});
`,
  );
  await run('git', ['init', '-q', '-b', 'main']);
  await run('git', ['add', '-A']);
  await run('git', ['commit', '-qm', 'initial']);
  const vitest = path.join(REPO, 'node_modules/vitest/vitest.mjs');
  for (let i = 0; i < runs - 1; i += 1) await run(process.execPath, [vitest, 'run']);
  write('src/value.js', 'export const value = 2;\n');
  await run('git', ['commit', '-qam', 'value two']);
  await run(process.execPath, [vitest, 'run']);
  const cli = path.join(REPO, 'dist/cli.js');
  const time = async (args) => {
    const t0 = performance.now();
    const r = await run(process.execPath, [cli, 'triage', '--json', ...args]);
    return { ms: performance.now() - t0, json: JSON.parse(r.stdout) };
  };
  const withH = [];
  const without = [];
  let classes = null;
  for (let i = 0; i < rounds; i += 1) {
    const a = await time([]);
    const b = await time(['--no-history']);
    withH.push(a.ms);
    without.push(b.ms);
    classes = {
      history: a.json.findings.map((f) => `${f.test}: ${f.class} (${f.rule})`),
      none: b.json.findings.map((f) => `${f.test}: ${f.class} (${f.rule})`),
    };
  }
  const m1 = median(withH);
  const m0 = median(without);
  console.log(`store filled by ${runs} real runs; ${rounds} rounds each, alternating`);
  console.log(`triage --json, history:     median ${m1.toFixed(0)} ms (${withH.map((x) => x.toFixed(0)).join(', ')})`);
  console.log(
    `triage --json, --no-history: median ${m0.toFixed(0)} ms (${without.map((x) => x.toFixed(0)).join(', ')})`,
  );
  console.log(`ratio ${(m1 / m0).toFixed(2)}x, +${(m1 - m0).toFixed(0)} ms`);
  console.log(`findings with history:    ${classes.history.join('; ')}`);
  console.log(`findings without history: ${classes.none.join('; ')}`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
