// Helpers for the gate benchmarks: scratch git repos with the repo's node_modules linked, and timing.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const REPO = path.resolve(import.meta.dirname, '..');
export const CLI = path.join(REPO, 'dist/cli.js');
export const VITEST = path.join(REPO, 'node_modules/vitest/vitest.mjs');

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'b',
  GIT_AUTHOR_EMAIL: 'b@b',
  GIT_COMMITTER_NAME: 'b',
  GIT_COMMITTER_EMAIL: 'b@b',
};

export function scratchRepo(files) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-bench-'));
  symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  const write = (rel, text) => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  };
  write('package.json', JSON.stringify({ name: 'bench', type: 'module', private: true }));
  write('.gitignore', 'node_modules\n.flakeguard\n');
  for (const [rel, text] of Object.entries(files)) write(rel, text);
  const git = (...args) =>
    execFileSync('git', args, { cwd: root, env: GIT_ENV, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-qm', 'base');
  return { root, write, git, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** Runs a command, returns { ms, status, stdout }. */
export function timed(cmd, args, cwd, env = {}) {
  const start = performance.now();
  const r = spawnSync(cmd, args, {
    cwd,
    env: { ...process.env, CI: 'true', NO_COLOR: '1', ...env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { ms: performance.now() - start, status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);

/**
 * The gate before cold tries (warm repeats in one worker), built from git into a temp folder with
 * this repo's node_modules linked: `git archive <ref> | tar -x`, then tsc. Returns its dist/cli.js.
 * OLD_GATE_REF is the last commit of main before the change (af4a4ef).
 */
export const OLD_GATE_REF = 'af4a4ef';
export function buildOldGate(ref = OLD_GATE_REF) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-old-gate-'));
  execFileSync('sh', [
    '-c',
    `git -C "${REPO}" archive ${ref} src tsconfig.json tsconfig.build.json package.json | tar -x -C "${dir}"`,
  ]);
  symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  execFileSync(process.execPath, [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: dir,
    stdio: 'inherit',
  });
  return { cli: path.join(dir, 'dist/cli.js'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** argv `--name value` as a number, else the default. */
export function numberArg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  const v = i === -1 ? Number.NaN : Number(process.argv[i + 1]);
  return Number.isFinite(v) ? v : fallback;
}
