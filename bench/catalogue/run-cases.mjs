/**
 * Runs catalogue cases, each in its own fixture (a git repo in a temp folder with a test, a branch
 * that adds one, the reporter in its Vitest config, history on), and prints one line per case:
 * class, name, exit code, the first `flakeguard:` line, and the files the command changed.
 * Usage: npm run build && node bench/catalogue/run-cases.mjs [cases module] (default: classes-5-7.mjs).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const REPO = path.resolve(import.meta.dirname, '../..');
const CLI = path.join(REPO, 'dist/cli.js');
const SKIP = new Set(['node_modules', '.git']);
const env = {
  ...process.env,
  NO_COLOR: '1',
  CI: 'true',
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@t',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@t',
};
delete env.GITHUB_ACTIONS;

function hashes(root) {
  const out = {};
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (SKIP.has(e.name)) continue;
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.isFile())
        out[path.relative(root, full)] = createHash('sha256').update(readFileSync(full)).digest('hex');
      else out[path.relative(root, full)] = 'special';
    }
  };
  walk(root);
  return out;
}

function makeFixture() {
  const root = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-cat-'));
  symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  const write = (rel, text) => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  };
  const git = (args) => execFileSync('git', args, { cwd: root, env, stdio: 'pipe' }).toString();
  const run = (file, args, extra = {}) =>
    spawnSync(file, args, {
      cwd: root,
      env: { ...env, ...extra },
      encoding: 'utf8',
      timeout: 120_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  write('package.json', '{"name":"fx","type":"module","private":true}');
  write('.gitignore', 'node_modules\n.flakeguard\n');
  write('flakeguard.yaml', 'history: true\n');
  write(
    'vitest.config.ts',
    `import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { reporters: ['default', ${JSON.stringify(path.join(REPO, 'dist/reporter/index.js'))}] } });\n`,
  );
  write('test/a.test.ts', "import { it } from 'vitest';\nit('old', () => {});\n");
  write(
    'reports/junit.xml',
    '<testsuites name="vitest tests"><testsuite name="a"><testcase classname="test/a.test.ts" name="adds"><failure>boom</failure></testcase></testsuite></testsuites>\n',
  );
  git(['init', '-q', '-b', 'main']);
  git(['add', '-A']);
  git(['commit', '-qm', 'init']);
  git(['checkout', '-q', '-b', 'feature']);
  write('test/a.test.ts', "import { it } from 'vitest';\nit('old', () => {});\nit('adds', () => {});\n");
  git(['commit', '-qam', 'adds']);
  return {
    root,
    write,
    git,
    vitest: async (args = []) =>
      run(process.execPath, [path.join(REPO, 'node_modules/vitest/vitest.mjs'), 'run', ...args]),
    flakeguard: async (args, extra) => run(process.execPath, [CLI, ...args], extra),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

const file = process.argv[2] ?? path.join(import.meta.dirname, 'classes-5-7.mjs');
const { cases } = await import(pathToFileURL(path.resolve(file)).href);
for (const c of cases) {
  const fx = makeFixture();
  try {
    await c.setup?.(fx);
    const before = hashes(fx.root);
    const r = await fx.flakeguard(c.command, c.env);
    const after = hashes(fx.root);
    const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
      (k) => before[k] !== after[k] && !k.startsWith('.flakeguard/runs/history/'),
    );
    const first =
      `${r.stderr ?? ''}`.split('\n').find((l) => l.startsWith('flakeguard: ')) ??
      `${r.stdout ?? ''}`.split('\n')[0] ??
      '';
    const exit = r.status ?? r.signal ?? (r.error ? 'timeout' : '?');
    console.log(
      `class ${c.class} | ${c.name} | exit ${exit} | ${first.slice(0, 200)} | changed: ${changed.length === 0 ? 'none' : changed.join(', ')}`,
    );
  } finally {
    fx.remove();
  }
}
