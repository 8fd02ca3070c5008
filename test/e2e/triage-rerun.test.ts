/**
 * `triage --rerun` on real layouts, with the project's own Vitest and config: an npm workspace whose
 * Vitest is hoisted to the workspace root (the project has no node_modules of its own) with a
 * config file Vitest would not find by itself (--config), and a pnpm layout (node_modules/vitest a
 * link into node_modules/.pnpm, no hoisted copy) with a `projects` config (--project). Setup files
 * write which config and project ran, so the pass-through is seen, not assumed. Triage runs in this
 * process (test/helpers/in-process-cli.ts: the subject is the re-runs it starts, which stay real
 * Vitest processes); test/e2e/cli-smoke.test.ts spawns the built triage once.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type Fixture, REPO_ROOT } from '../helpers/fixture.js';
import { flakeguardInProcess } from '../helpers/in-process-cli.js';
import { countProcess } from '../helpers/process-budget.js';

const VITEST = path.join(REPO_ROOT, 'node_modules/vitest/vitest.mjs');

// Fails the first time it runs in this checkout (a counter file), passes afterwards: a flake.
const FIRST_RUN_FAILS = `import { it, expect } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
it('reads the cache once warm', () => {
  const n = existsSync('.attempts') ? Number(readFileSync('.attempts', 'utf8')) : 0;
  writeFileSync('.attempts', String(n + 1));
  expect(n, 'cold cache on the first run').toBeGreaterThan(0);
});
`;
const ALWAYS_FAILS = `import { describe, it, expect } from 'vitest';
describe('totals', () => {
  it('adds tax [20%] (\`$(date)\`)', () => { expect(globalThis.TAX).toBe(0.25); });
});
`;
const SEEN = (label: string) =>
  `import { appendFileSync } from 'node:fs';\nappendFileSync('.seen', ${JSON.stringify(`${label}\n`)});\nglobalThis.TAX = 0.2;\n`;

interface Json {
  findings: {
    class: string;
    fullName: string | null;
    file: string | null;
    measured: boolean;
    evidence: string[];
    action: string;
  }[];
}

const fixtures: Fixture[] = [];
afterAll(() => {
  for (const fx of fixtures) fx.remove();
});

async function vitestIn(cwd: string, args: readonly string[]): Promise<number> {
  countProcess('vitest');
  const r = await execa(process.execPath, [VITEST, 'run', ...args], {
    cwd,
    reject: false,
    env: { CI: 'true', NO_COLOR: '1' },
  });
  return r.exitCode ?? 1;
}

describe('triage --rerun with the project’s Vitest and config', () => {
  let ws: Fixture;
  const app = (): string => path.join(ws.root, 'packages/app');

  beforeAll(async () => {
    ws = await createFixture({
      files: {
        'package.json': JSON.stringify({ name: 'ws', private: true, type: 'module', workspaces: ['packages/*'] }),
        'packages/app/package.json': JSON.stringify({ name: 'app', private: true, type: 'module' }),
        // A config Vitest does not find by itself, with a non-default include and a setup file.
        'packages/app/vitest.ci.config.ts': `import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { include: ['checks/**/*.check.ts'], setupFiles: ['./setup.ts'] } });\n`,
        'packages/app/setup.ts': SEEN('ci-config'),
        'packages/app/checks/cache.check.ts': FIRST_RUN_FAILS,
        'packages/app/checks/totals.check.ts': ALWAYS_FAILS,
      },
    });
    fixtures.push(ws);
    expect(existsSync(path.join(app(), 'node_modules'))).toBe(false);
    expect(
      await vitestIn(app(), ['--config', 'vitest.ci.config.ts', '--reporter=json', '--outputFile=out/report.json']),
    ).toBe(1);
  }, 120_000);

  it('npm workspace, Vitest hoisted to the workspace root: --config reaches every re-run; escape and flake are measured', async () => {
    const r = await flakeguardInProcess(ws, [
      'triage',
      '--json',
      '--root',
      'packages/app',
      '--report',
      'packages/app/out/report.json',
      '--exit-code',
      '1',
      '--rerun',
      '1',
      '--config',
      'packages/app/vitest.ci.config.ts',
    ]);
    expect(r.exitCode, r.output).toBe(1);
    // Which root and config the re-runs use, in the gate's words (issue 19, class 6).
    expect(r.stderr).toMatch(
      /^flakeguard triage: project root packages\/app, Vitest config packages\/app\/vitest\.ci\.config\.ts$/m,
    );
    const json = JSON.parse(r.stdout) as Json;
    expect(json.findings.map((f) => [f.class, f.file, f.fullName, f.measured])).toEqual([
      ['escape', 'checks/totals.check.ts', 'totals > adds tax [20%] (`$(date)`)', true],
      ['flake', 'checks/cache.check.ts', 'reads the cache once warm', true],
    ]);
    expect(json.findings[0]?.evidence.at(-1)).toMatch(
      /^re-ran checks\/totals\.check\.ts > totals > adds tax .* 1 time: 1\/1 failed/,
    );
    expect(json.findings[0]?.action).toContain(`reproduce with npx vitest run "checks/totals.check.ts:3"`);
    // The CI run (two files), then a re-run of each test: every one loaded the config's setup file.
    expect(readFileSync(path.join(app(), '.seen'), 'utf8').trim().split('\n')).toEqual(Array(4).fill('ci-config'));
  }, 120_000);

  it('without --config the re-runs cannot find the tests (Vitest looks for vitest.config.*): the findings say so and stay inferred', async () => {
    const r = await flakeguardInProcess(ws, [
      'triage',
      '--json',
      '--root',
      'packages/app',
      '--report',
      'packages/app/out/report.json',
      '--exit-code',
      '1',
      '--rerun',
      '1',
    ]);
    expect(r.stderr).toMatch(
      /^flakeguard triage: project root packages\/app, Vitest config none \(Vitest's defaults\)$/m,
    );
    const json = JSON.parse(r.stdout) as Json;
    expect(json.findings.map((f) => [f.class, f.measured])).toEqual([
      ['escape', false],
      ['escape', false],
    ]);
    expect(json.findings[0]?.evidence.at(-1)).toContain('1 did not run it');
  }, 120_000);

  it('pnpm layout (node_modules/vitest links into node_modules/.pnpm, nothing hoisted): --project reaches every re-run', async () => {
    const fx = await createFixture({
      files: {
        'app/package.json': JSON.stringify({ name: 'app', private: true, type: 'module' }),
        'app/vitest.config.ts': `import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { projects: [{ test: { name: 'unit', include: ['test/**/*.test.ts'], setupFiles: ['./setup-unit.ts'] } }, { test: { name: 'other', include: ['test/**/*.test.ts'], setupFiles: ['./setup-other.ts'] } }] } });\n`,
        'app/setup-unit.ts': SEEN('unit'),
        'app/setup-other.ts': SEEN('other'),
        'app/test/totals.test.ts': ALWAYS_FAILS,
      },
    });
    fixtures.push(fx);
    unlinkSync(path.join(fx.root, 'node_modules'));
    const store = path.join(fx.root, 'app/node_modules/.pnpm/vitest@4.1.12/node_modules');
    mkdirSync(store, { recursive: true });
    symlinkSync(path.join(REPO_ROOT, 'node_modules/vitest'), path.join(store, 'vitest'), 'dir');
    symlinkSync('.pnpm/vitest@4.1.12/node_modules/vitest', path.join(fx.root, 'app/node_modules/vitest'), 'dir');
    const appDir = path.join(fx.root, 'app');
    expect(await vitestIn(appDir, ['--project', 'unit', '--reporter=json', '--outputFile=out/report.json'])).toBe(1);
    const r = await flakeguardInProcess(fx, [
      'triage',
      '--json',
      '--root',
      'app',
      '--report',
      'app/out/report.json',
      '--exit-code',
      '1',
      '--rerun',
      '1',
      '--project',
      'unit',
    ]);
    expect(r.exitCode, r.output).toBe(1);
    expect(r.stderr).toMatch(/^flakeguard triage: project root app, Vitest config app\/vitest\.config\.ts$/m);
    const json = JSON.parse(r.stdout) as Json;
    expect(json.findings.map((f) => [f.class, f.file, f.fullName, f.measured])).toEqual([
      ['escape', 'test/totals.test.ts', 'totals > adds tax [20%] (`$(date)`)', true],
    ]);
    expect(readFileSync(path.join(appDir, '.seen'), 'utf8').trim().split('\n')).toEqual(['unit', 'unit']);
  }, 120_000);

  it('names the folders searched when Vitest is not installed for the root', async () => {
    const fx = await createFixture({
      files: {
        'lone/package.json': '{}',
        'lone/test/a.test.ts': ALWAYS_FAILS,
        'lone/out/report.json':
          '{"numTotalTests":1,"testResults":[{"name":"test/a.test.ts","status":"failed","message":"","assertionResults":[{"ancestorTitles":["totals"],"title":"adds","fullName":"totals adds","status":"failed","failureMessages":["AssertionError: x"]}]}]}',
      },
    });
    fixtures.push(fx);
    unlinkSync(path.join(fx.root, 'node_modules'));
    const r = await flakeguardInProcess(fx, [
      'triage',
      '--root',
      'lone',
      '--report',
      'lone/out/report.json',
      '--rerun',
      '1',
    ]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Vitest is not installed for');
    expect(r.stderr).toContain('looked for node_modules/vitest in');
  }, 60_000);
});
