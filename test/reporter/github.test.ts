import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fixture, RunResult } from '../helpers/fixture.js';
import { PLATFORM, printedDuration, readText, reporterProject, testFile } from './reporter-fixture.js';

describe('reporter: GitHub Actions', () => {
  let fx: Fixture;
  let run: RunResult;
  beforeAll(async () => {
    fx = await reporterProject(
      {
        'gh.test.ts': testFile(
          [
            // Over the 1s budget by sleeping longer; near it (25% = 250ms) with 700ms to spare.
            `test('slow, with, commas: and colons', async () => { await sleep(1100); });`,
            `test('near the line', async () => { await sleep(300); });`,
            `let attempts = 0;`,
            `test('flaky once', () => { attempts += 1; if (attempts === 1) throw new Error('first try fails'); });`,
          ].join('\n'),
        ),
      },
      { yaml: 'budget:\n  test: 1s\n  warnAt: 25%\n', vitestExtra: 'retry: 1,' },
    );
    run = await fx.vitest([], { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: `${fx.root}/summary.md` });
  });
  afterAll(() => fx.remove());

  it('annotates the test over budget as an error at its file and line', () => {
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toMatch(
      new RegExp(
        `^::error file=gh\\.test\\.ts,line=3,title=flakeguard%3A over duration budget::over budget  slow, with, commas: and colons  ${printedDuration(fx, 'slow, with, commas: and colons')} > 1\\.00s \\(${PLATFORM} budget\\)%0ATo allow it: flakeguard allowances add `,
        'm',
      ),
    );
  });

  it('annotates near-budget and flaky tests as warnings, the flaky one with its first error', () => {
    expect(run.stdout).toMatch(
      new RegExp(
        `^::warning file=gh\\.test\\.ts,line=4,title=flakeguard%3A near duration budget::near budget  near the line  ${printedDuration(fx, 'near the line')} of 1\\.00s`,
        'm',
      ),
    );
    expect(run.stdout).toMatch(
      /^::warning file=gh\.test\.ts,line=6,title=flakeguard%3A flaky test::flaky {2}flaky once {2}passed after 1 retry; first error: Error: first try fails \(gh\.test\.ts:6:\d+\)/m,
    );
  });

  it('appends a Markdown table to the step summary', () => {
    const summary = readText(fx, 'summary.md');
    expect(summary).toContain(`## flakeguard: duration budgets (${PLATFORM})`);
    expect(summary).toContain('**flakeguard: run failed on duration budgets: 1 test over budget (no test failed)**');
    expect(summary).toContain('| Status | Test | Place | Duration | Limit | Limit from |');
    expect(summary).toMatch(
      new RegExp(
        `\\| 🔴 over budget \\| slow, with, commas: and colons \\| \`gh\\.test\\.ts:3\` \\| ${printedDuration(fx, 'slow, with, commas: and colons')} \\| 1\\.00s \\|`,
      ),
    );
    expect(summary).toMatch(/\| 🟡 near budget \| near the line \| `gh\.test\.ts:4` \|/);
    expect(summary).toMatch(/### Flaky[\s\S]*\| flaky once \| `gh\.test\.ts:6` \| 1 \| Error: first try fails/);
  });
});
