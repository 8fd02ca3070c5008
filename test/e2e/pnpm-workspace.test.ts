/**
 * A pnpm monorepo, as the README tells its users: the packed tarball added at the workspace root
 * (`pnpm add -D -w`, pnpm 10 from the npm registry), the git repository at the workspace root, and
 * the reporter, the gate and `triage --rerun` run from a package folder with `pnpm exec`. Vitest and
 * flakeguard are found the way Node finds them from the package (linked at the root), and paths are
 * relative to the package, not to the git root above it.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packTarball, sh } from '../helpers/packed.js';
import { gateAtNoSlowdown } from './gate-fixtures.js';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-pnpm-'));
let tarball = '';

beforeAll(async () => {
  tarball = await packTarball(scratch);
}, 120_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

describe('the packed tarball in a pnpm workspace', () => {
  it('runs the reporter, the gate and triage --rerun from a package folder', async () => {
    const ws = path.join(scratch, 'ws');
    const app = path.join(ws, 'packages/app');
    write(path.join(ws, 'package.json'), JSON.stringify({ name: 'ws', private: true }));
    write(path.join(ws, 'pnpm-workspace.yaml'), 'packages:\n  - "packages/*"\n');
    write(path.join(ws, '.gitignore'), 'node_modules\n.flakeguard\n');
    write(path.join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    write(
      path.join(app, 'vitest.config.ts'),
      `import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { reporters: ['default', 'flakeguard/reporter'] } });\n`,
    );
    write(
      path.join(app, 'test/slow.test.ts'),
      `import { expect, it } from 'vitest';\nit('replays the journal', async () => {\n  await new Promise((r) => setTimeout(r, 450));\n  expect(1).toBe(1);\n});\n`,
    );
    const pnpm = (cwd: string, ...args: string[]) => sh(cwd, 'npx', ['-y', 'pnpm@10', ...args]);

    // The README's line for a pnpm workspace root (a store of its own: nothing left outside scratch).
    const add = await pnpm(
      ws,
      'add',
      '-D',
      '-w',
      '--store-dir',
      path.join(scratch, 'store'),
      tarball,
      'vitest@4.1.12',
      'vite@8.3.8',
    );
    expect(add.exitCode, add.all).toBe(0);
    expect(readdirSync(path.join(app))).not.toContain('node_modules');

    const init = await pnpm(app, 'exec', 'flakeguard', 'init');
    expect(init.exitCode, init.all).toBe(0);
    const configPath = path.join(app, 'flakeguard.yaml');
    writeFileSync(configPath, readFileSync(configPath, 'utf8').replace('test: 5s', 'test: 300ms'));

    // The reporter: the record is the package's, its paths relative to the package.
    const red = await pnpm(app, 'exec', 'vitest', 'run');
    expect(red.exitCode, red.all).toBe(1);
    expect(red.all).toMatch(/over budget {2}test\/slow\.test\.ts:2 {2}replays the journal {2}\d+ms > 300ms/);
    const runs = path.join(app, '.flakeguard/runs');
    const record = JSON.parse(readFileSync(path.join(runs, readdirSync(runs)[0] ?? ''), 'utf8')) as {
      root: string;
      tests: { file: string }[];
    };
    expect(record.root).toBe(app);
    expect(record.tests.map((t) => t.file)).toEqual(['test/slow.test.ts']);

    // The gate: git's root is the workspace, the project is the package.
    await sh(ws, 'git', ['init', '-q', '-b', 'main']);
    await sh(ws, 'git', ['add', '-A']);
    await sh(ws, 'git', ['commit', '-qm', 'base']);
    write(
      path.join(app, 'test/new.test.ts'),
      `import { expect, it } from 'vitest';\nit('adds', () => { expect(1 + 1).toBe(2); });\n`,
    );
    // At no slowdown: the subject is where the gate finds Vitest and the project, not the factor.
    const gate = await pnpm(app, 'exec', 'flakeguard', ...gateAtNoSlowdown(3, 0, '--base', 'main', '--json'));
    expect(gate.exitCode, gate.all).toBe(0);
    const gated = JSON.parse(gate.stdout) as {
      verdict: string;
      tests: { file: string; fullName: string; verdict: string }[];
    };
    expect(gated.verdict).toBe('pass');
    expect(gated.tests.map((t) => [t.file, t.fullName, t.verdict])).toEqual([['test/new.test.ts', 'adds', 'stable']]);

    // triage --rerun: the failure re-runs in the package's own Vitest.
    write(
      path.join(app, 'test/fail.test.ts'),
      `import { expect, it } from 'vitest';\nit('breaks', () => { expect(1).toBe(2); });\n`,
    );
    rmSync(runs, { recursive: true, force: true });
    const failed = await pnpm(app, 'exec', 'vitest', 'run');
    expect(failed.exitCode, failed.all).toBe(1);
    const triage = await pnpm(app, 'exec', 'flakeguard', 'triage', '--rerun', '2', '--json');
    expect(triage.exitCode, triage.all).toBe(1);
    const triaged = JSON.parse(triage.stdout) as {
      findings: { class: string; file: string; fullName: string; measured: boolean; evidence: string[] }[];
    };
    const escaped = triaged.findings.find((f) => f.fullName === 'breaks');
    expect(escaped, triage.all).toMatchObject({ class: 'escape', file: 'test/fail.test.ts', measured: true });
    expect(escaped?.evidence.join('\n')).toContain('2/2 failed');
  }, 600_000);
});
