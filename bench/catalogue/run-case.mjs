// Runs one catalogue case: a temp project (package.json, a passing test, the repo's node_modules
// linked, a git repo on main), the case's setup, the command, and what changed in the folder.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  lstatSync,
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
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = path.join(REPO, 'dist/cli.js');
export const REPORTER = path.join(REPO, 'dist/reporter/index.js');
const VITEST = path.join(REPO, 'node_modules/vitest/vitest.mjs');
const SKIP = new Set(['node_modules', '.git']);

export function write(dir, rel, content) {
  mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  writeFileSync(path.join(dir, rel), content);
}

/** Runs the built CLI in dir (for setups that need flakeguard itself, e.g. quarantine add). */
export function flakeguardSync(dir, args) {
  return execFileSync(process.execPath, [CLI, ...args], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: 'pipe',
  });
}

/** Every entry under dir by relative path: its kind, and the hash of a regular file's content. */
function snapshot(dir) {
  const out = new Map();
  const walk = (sub) => {
    for (const name of readdirSync(path.join(dir, sub))) {
      if (SKIP.has(name)) continue;
      const rel = path.join(sub, name);
      const stat = lstatSync(path.join(dir, rel));
      if (stat.isDirectory()) {
        out.set(rel, 'folder');
        walk(rel);
      } else if (stat.isFile())
        out.set(
          rel,
          `file ${createHash('sha256')
            .update(readFileSync(path.join(dir, rel)))
            .digest('hex')
            .slice(0, 12)}`,
        );
      else out.set(rel, stat.isSymbolicLink() ? 'link' : stat.isFIFO() ? 'fifo' : 'special');
    }
  };
  walk('');
  return out;
}

function changes(before, after) {
  const out = [];
  for (const [rel, kind] of after) {
    const was = before.get(rel);
    if (was === undefined) out.push(`+${rel}`);
    else if (was !== kind)
      out.push(
        was.split(' ')[0] === kind.split(' ')[0] ? rel : `${rel} (${was.split(' ')[0]} -> ${kind.split(' ')[0]})`,
      );
  }
  for (const rel of before.keys()) if (!after.has(rel)) out.push(`-${rel}`);
  return collapse(out);
}

/** Changes deeper than three folders are counted per folder (a history store's own files are many). */
function collapse(changed) {
  const deep = new Map();
  const out = [];
  for (const c of changed) {
    const parts = c.split(path.sep);
    if (parts.length <= 4) out.push(c);
    else deep.set(parts.slice(0, 3).join('/'), (deep.get(parts.slice(0, 3).join('/')) ?? 0) + 1);
  }
  for (const [dir, n] of deep) out.push(`${dir}/… (${n} files)`);
  return out;
}

function run(file, args, options) {
  return new Promise((resolve) => {
    const child = spawn(file, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ exitCode: code ?? signal, stdout, stderr });
    });
  });
}

export async function runCase(c) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-catalogue-'));
  try {
    symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    write(dir, 'package.json', JSON.stringify({ name: 'catalogue', type: 'module', private: true }));
    write(
      dir,
      'vitest.config.ts',
      `import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { reporters: [${JSON.stringify(REPORTER)}] } });\n`,
    );
    write(dir, 'test/a.test.ts', "import { it } from 'vitest';\nit('plain', () => {});\n");
    write(dir, '.gitignore', 'node_modules\n.flakeguard\n');
    const git = (args) =>
      execFileSync('git', args, {
        cwd: dir,
        stdio: 'ignore',
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 'c',
          GIT_AUTHOR_EMAIL: 'c@c',
          GIT_COMMITTER_NAME: 'c',
          GIT_COMMITTER_EMAIL: 'c@c',
        },
      });
    git(['init', '-q', '-b', 'main']);
    git(['add', '-A']);
    git(['commit', '-qm', 'initial']);
    await c.setup?.(dir);
    const before = snapshot(dir);
    const env = { ...process.env, NO_COLOR: '1' };
    for (const key of ['GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY', 'FLAKEGUARD_HISTORY_URL']) delete env[key];
    Object.assign(env, c.env ?? {});
    const reader = c.reader
      ? run(
          process.execPath,
          ['-e', 'process.stdout.write(require("fs").readFileSync(process.argv[1]))', path.join(dir, c.reader)],
          {},
        )
      : null;
    const result =
      c.command[0] === 'vitest'
        ? await run(process.execPath, [VITEST, 'run', ...c.command.slice(1)], { cwd: dir, env })
        : await run(process.execPath, [CLI, ...c.command], { cwd: dir, env });
    const read = reader ? await reader : null;
    const lines = result.stderr.split('\n');
    const message = (
      lines.find((l) => l.startsWith('flakeguard: ')) ??
      lines.find((l) => l.trim() !== '') ??
      result.stdout.split('\n')[0] ??
      ''
    ).slice(0, 200);
    const problem = c.check?.({ ...result, dir, read: read?.stdout ?? null }) ?? '';
    return {
      exitCode: result.exitCode,
      message: JSON.stringify(message).slice(1, -1),
      changed: changes(before, snapshot(dir)),
      problem,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
