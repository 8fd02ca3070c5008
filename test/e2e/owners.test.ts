/**
 * Owners end to end: a repository with a CODEOWNERS whose patterns overlap (the last match wins), a
 * pattern with no owner, and GitLab sections; each output names the right owners: the reporter's
 * budget lines and GitHub annotations, triage (text, JSON, --owner, the PR comment), quarantine add
 * and list (--owner), history's lists (--owner).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type Fixture, type RunResult, vitestConfigWithReporter } from '../helpers/fixture.js';
import { ingestRunRecords, seedHistoryStore } from '../helpers/history-template.js';
import { flakeguardInProcess } from '../helpers/in-process-cli.js';

const CODEOWNERS = `# everyone, then narrower patterns: the last match wins
*                        @org/everyone
/test/                   @org/qa
/test/payments/          @org/payments @dana
/test/payments/legacy/

[Docs][1] @org/docs
*.md

^[Payments review] @org/pay-review
/test/payments/card*.test.ts
`;

const QA = ['@org/qa'];
const PAYMENTS = ['@org/payments', '@dana', '@org/pay-review'];

const files = {
  'flakeguard.yaml': 'budget:\n  test: 200ms\n',
  'vitest.config.ts': vitestConfigWithReporter('retry: 1, includeTaskLocation: true'),
  CODEOWNERS,
  'test/cart.test.ts': `import { expect, it } from 'vitest';
it('checks out slowly', async () => {
  await new Promise((r) => setTimeout(r, 400));
  expect(1).toBe(1);
});
`,
  'test/payments/card.test.ts': `import { expect, it } from 'vitest';
let tries = 0;
it('retries the charge', () => {
  tries += 1;
  expect(tries).toBeGreaterThan(1);
});
it('declines the card', () => {
  expect('declined').toBe('approved');
});
`,
  'test/payments/legacy/old.test.ts': `import { expect, it } from 'vitest';
it('rounds like before', () => {
  expect(0.1 + 0.2).toBe(0.3);
});
`,
};

describe('owners from CODEOWNERS in every output', () => {
  let fx: Fixture;
  let run: RunResult;
  beforeAll(async () => {
    fx = await createFixture({ files, git: true });
    seedHistoryStore(fx.root);
    run = await fx.vitest([], { GITHUB_ACTIONS: 'true', FLAKEGUARD_BRANCH: 'main' });
    // The run's record stored with history ingest, as the reporter stores it with history on: no
    // store opened in the Vitest run (test/e2e/history.test.ts keeps the reporter storing real runs).
    await ingestRunRecords(fx, 'budget:\n  test: 200ms\nhistory: true\n');
  });
  afterAll(() => fx?.remove());

  it('the reporter: budget lines and GitHub annotations name the owners, a test without owners gets no note', () => {
    expect(run.exitCode, run.output).toBe(1);
    expect(run.output).toMatch(/over budget {2}test\/cart\.test\.ts:2 {2}checks out slowly .*\(owners: @org\/qa\)/);
    expect(run.output).toMatch(
      /flaky {2}test\/payments\/card\.test\.ts:3 {2}retries the charge .*\(owners: @org\/payments @dana @org\/pay-review\)/,
    );
    expect(run.output).toMatch(
      /failed {2}test\/payments\/card\.test\.ts:7 {2}declines the card .*\(owners: @org\/payments @dana @org\/pay-review\)/,
    );
    expect(run.output).toMatch(
      /failed {2}test\/payments\/legacy\/old\.test\.ts:2 {2}rounds like before {2}AssertionError[^\n]*\)\n/,
    );
    expect(run.output).not.toMatch(/old\.test\.ts[^\n]*owners/);
    expect(run.output).toMatch(
      /::error file=test\/cart\.test\.ts,line=2,title=flakeguard%3A over duration budget::over budget {2}checks out slowly .*\(owners: @org\/qa\)%0ATo allow it/,
    );
  });

  it("triage: each finding names its owners; --owner keeps one team's; --markdown writes the PR comment", async () => {
    const json = await flakeguardInProcess(fx, ['triage', '--json', '--no-history']);
    expect(json.exitCode, json.output).toBe(1);
    const findings = (
      JSON.parse(json.stdout) as { findings: { file: string | null; fullName: string | null; owners: string[] }[] }
    ).findings;
    const ownersOf = Object.fromEntries(findings.map((f) => [`${f.file} > ${f.fullName}`, f.owners]));
    expect(ownersOf).toMatchObject({
      'test/cart.test.ts > checks out slowly': QA,
      'test/payments/card.test.ts > declines the card': PAYMENTS,
      'test/payments/legacy/old.test.ts > rounds like before': [],
    });
    const team = await flakeguardInProcess(fx, [
      'triage',
      '--no-history',
      '--owner',
      'org/pay-review',
      '--markdown',
      'comment.md',
    ]);
    expect(team.stdout).toContain('test/payments/card.test.ts > declines the card');
    expect(team.stdout).toContain('   owners: @org/payments @dana @org/pay-review');
    expect(team.stdout).not.toContain('test/cart.test.ts');
    expect(team.stdout).toMatch(/--owner org\/pay-review: \d+ findings? of other owners or of the whole run not shown/);
    const comment = readFileSync(path.join(fx.root, 'comment.md'), 'utf8');
    expect(comment.split('\n')[0]).toBe('<!-- flakeguard:triage -->');
    expect(comment).toContain('**Do first:**');
    expect(comment).toContain('· owners: @org/payments @dana @org/pay-review');
  });

  it('quarantine: add records the owners at the time, list shows them, --owner filters', async () => {
    const add = await flakeguardInProcess(fx, [
      'quarantine',
      'add',
      '--file',
      'test/payments/card.test.ts',
      '--test',
      'declines the card',
      '--reason',
      'card sandbox down',
    ]);
    expect(add.exitCode, add.output).toBe(0);
    expect(add.stdout).toContain('owners @org/payments @dana @org/pay-review');
    expect(readFileSync(path.join(fx.root, 'allowances/test/payments/card.test.ts.yaml'), 'utf8')).toContain(
      'owners: "@org/payments @dana @org/pay-review"',
    );
    // CODEOWNERS changes afterwards: the quarantine keeps who owned the fix when it was added.
    fx.write('CODEOWNERS', '* @org/new-team\n');
    const list = await flakeguardInProcess(fx, ['quarantine', 'list']);
    expect(list.stdout).toContain('    owners: @org/payments @dana @org/pay-review');
    const mine = await flakeguardInProcess(fx, ['quarantine', 'list', '--owner', '@dana', '--json']);
    expect(
      (JSON.parse(mine.stdout) as { quarantines: { owners: string[] }[] }).quarantines.map((q) => q.owners),
    ).toEqual([PAYMENTS]);
    const other = await flakeguardInProcess(fx, ['quarantine', 'list', '--owner', '@org/qa']);
    expect(other.stdout).toContain('No quarantined tests.');
    fx.write('CODEOWNERS', CODEOWNERS);
  });

  it("history: the lists name the owners; --owner keeps one team's tests", async () => {
    const all = await flakeguardInProcess(fx, ['history', '--json', '--file', 'test']);
    expect(all.exitCode, all.output).toBe(0);
    const tests = (JSON.parse(all.stdout) as { tests: { file: string; fullName: string; owners: string[] }[] }).tests;
    expect(Object.fromEntries(tests.map((t) => [t.fullName, t.owners]))).toEqual({
      'checks out slowly': QA,
      'retries the charge': PAYMENTS,
      'declines the card': PAYMENTS,
      'rounds like before': [],
    });
    const qa = await flakeguardInProcess(fx, ['history', '--owner', '@org/qa']);
    expect(qa.exitCode, qa.output).toBe(0);
    expect(qa.stdout).toContain('test/cart.test.ts  checks out slowly  (owners: @org/qa)');
    expect(qa.stdout).not.toContain('card.test.ts');
  });
});
