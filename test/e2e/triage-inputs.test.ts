/**
 * Triage's inputs end to end (the built CLI on real Vitest output): a file of another kind, a
 * directory, a missing file, an empty or unrelated log alone stop with exit 2, the path and what was
 * expected, never "green"; a plain JSON report (or JUnit) in a checkout with allowances is held to
 * each test's allowance, and the evidence names the limit and where it came from.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type Fixture } from '../helpers/fixture.js';
import { flakeguardInProcess } from '../helpers/in-process-cli.js';

let fx: Fixture;

const TESTS = `import { it } from 'vitest';
const wait = (ms) => new Promise((r) => setTimeout(r, ms));
it('renders the invoice', async () => { await wait(350); });
it('exports the ledger', async () => { await wait(350); });
it('is quick', () => {});
`;

beforeAll(async () => {
  fx = await createFixture({
    files: {
      'vitest.config.ts': `import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { include: ['test/**/*.test.ts'] } });\n`,
      'test/billing.test.ts': TESTS,
      'flakeguard.yaml': 'budget:\n  test: 200ms\n',
    },
  });
  await flakeguardInProcess(fx, [
    'allowances',
    'add',
    '--file',
    'test/billing.test.ts',
    '--test',
    'renders the invoice',
    '--budget',
    '2s',
    '--reason',
    'renders a PDF',
  ]);
  await fx.vitest([
    '--reporter=json',
    '--reporter=junit',
    '--outputFile.json=out/report.json',
    '--outputFile.junit=out/junit.xml',
  ]);
  fx.write('out/empty.log', '');
  fx.write('out/random.log', 'lorem ipsum\ndolor sit amet\n');
  fx.write('out/null.json', 'null');
  fx.write('out/empty-object.json', '{}');
  fx.write('out/array.json', '[]');
  fx.write('out/not-xml.xml', 'just text\n');
  mkdirSync(path.join(fx.root, 'out/dir'));
}, 120_000);

afterAll(() => fx.remove());

describe('triage inputs', () => {
  it.each([
    ['--report', 'package.json', 'is JSON but not a Vitest report (an object with keys name, type, private'],
    ['--report', 'out/empty-object.json', 'is JSON but not a Vitest report (an empty object'],
    ['--report', 'out/null.json', 'is JSON but not a Vitest report (null'],
    ['--report', 'out/array.json', 'is JSON but not a Vitest report (an array of 0'],
    ['--record', 'package.json', 'is JSON but not a run record'],
    ['--junit', 'out/not-xml.xml', 'has no <testsuites> or <testsuite> element'],
    ['--report', 'out/dir', 'is a directory'],
    ['--log', 'out/dir', 'is a directory'],
    ['--record', 'out/dir', 'is a directory'],
    ['--junit', 'out/dir', 'is a directory'],
  ])('%s %s: exit 2, the path and what was expected', async (flag, file, what) => {
    const r = await flakeguardInProcess(fx, ['triage', flag, file]);
    expect(r.exitCode, r.output).toBe(2);
    expect(r.stderr).toContain(`${flag} ${file}: ${what}`);
    expect(r.stderr).toContain('expected ');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).not.toContain('green');
  });

  it('an empty or unrelated log given alone is not a green run: exit 2', async () => {
    for (const log of ['out/empty.log', 'out/random.log']) {
      const r = await flakeguardInProcess(fx, ['triage', '--log', log]);
      expect(r.exitCode, r.output).toBe(2);
      expect(r.stderr).toContain(`no input shows a run (${log}`);
      expect(r.stdout).toBe('');
    }
  });

  it('a missing log next to other inputs stops with exit 2 (not ignored)', async () => {
    const r = await flakeguardInProcess(fx, ['triage', '--report', 'out/report.json', '--log', 'out/ci.log']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--log out/ci.log: does not exist; expected the CI log of the job that ran Vitest');
  });

  it('a plain JSON report in a checkout: each test held to its allowance, else the budget, and the evidence says which and where from', async () => {
    const r = await flakeguardInProcess(fx, ['triage', '--json', '--report', 'out/report.json', '--exit-code', '0']);
    expect(r.exitCode, r.output).toBe(1);
    const json = JSON.parse(r.stdout) as { findings: { class: string; fullName: string | null; evidence: string[] }[] };
    // 'renders the invoice' took ~350ms, inside its 2s allowance: no finding. 'exports the ledger' is over the 200ms budget.
    expect(json.findings.map((f) => [f.class, f.fullName])).toEqual([['budget', 'exports the ledger']]);
    expect(json.findings[0]?.evidence.join('\n')).toMatch(
      /duration \d+ms > 200ms \(limit: budget\.test in flakeguard\.yaml \(all platforms\)\)/,
    );
    const flag = await flakeguardInProcess(fx, [
      'triage',
      '--json',
      '--report',
      'out/report.json',
      '--exit-code',
      '0',
      '--budget',
      '100ms',
    ]);
    const withFlag = JSON.parse(flag.stdout) as typeof json;
    expect(withFlag.findings.map((f) => f.fullName)).toEqual(['exports the ledger']);
    expect(withFlag.findings[0]?.evidence.join('\n')).toContain('(limit: --budget)');
    // JUnit alone: the same durations, the same limits.
    const junit = JSON.parse(
      (await flakeguardInProcess(fx, ['triage', '--json', '--junit', 'out/junit.xml', '--exit-code', '0'])).stdout,
    ) as typeof json;
    expect(junit.findings.map((f) => [f.class, f.fullName])).toEqual([['budget', 'exports the ledger']]);
    // An allowance tighter than the duration: the finding names the allowance and its file.
    await flakeguardInProcess(fx, [
      'allowances',
      'add',
      '--file',
      'test/billing.test.ts',
      '--test',
      'exports the ledger',
      '--budget',
      '300ms',
      '--reason',
      'big ledger',
    ]);
    const tight = JSON.parse(
      (await flakeguardInProcess(fx, ['triage', '--json', '--report', 'out/report.json', '--exit-code', '0'])).stdout,
    ) as typeof json;
    expect(tight.findings.map((f) => f.fullName)).toEqual(['exports the ledger']);
    expect(tight.findings[0]?.evidence.join('\n')).toMatch(
      /> 300ms \(limit: allowance [0-9a-f]+ in allowances\/test\/billing\.test\.ts\.yaml \(all platforms\)\)/,
    );
  });
});
