/**
 * Bad input catalogue (issue 48, findings 2 and 3): values a user or a test controls, quoted where
 * they could act. A history URL that is no valid URL (a space in its password) is quoted by the
 * reporter's warning with its password as *** (the commands that quote it: secrets.test.ts). A test
 * named with `@octocat` (and a reference, a link) is written into `gate --markdown` and `triage
 * --markdown` so that GitHub makes no mention, reference or link of it, in the "Fix first" line and
 * the table; CODEOWNERS owners stay mentions on purpose. Needs `npm run build`. The commands run in
 * this process; the reporter runs in a fixture Vitest, as the user runs it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGateReport } from '../../core/html/html-factories.js';
import { createFixture, type Fixture, vitestConfigWithReporter } from '../../helpers/fixture.js';
import { runCliInProcess } from '../../helpers/in-process-cli.js';

const NAME = 'checkout > pings @octocat about #12 at https://evil.example [here](https://evil.example)';
/** What GitHub would make a mention, a reference or a link of, in the comment's source. */
const LIVE = [/@octocat/, /#12/, /https:\/\/evil/, /(?<!\\)\]\(/];

let fx: Fixture;
beforeAll(async () => {
  fx = await createFixture({
    git: true,
    files: {
      'vitest.config.ts': vitestConfigWithReporter(),
      'test/a.test.ts': `import { describe, it } from 'vitest';\ndescribe('checkout', () => {\n  it(${JSON.stringify(NAME.slice('checkout > '.length))}, () => {});\n});\n`,
      '.github/CODEOWNERS': '* @org/checkout-team\n',
      'ci/log.txt': ` FAIL  test/a.test.ts > ${NAME}\nAssertionError: expected @octocat to be #12\n Test Files  1 failed (1)\n`,
    },
  });
}, 60_000);
afterAll(() => fx.remove());

describe('a history URL that is no valid URL', () => {
  it("the reporter's warning quotes it with its password as ***", async () => {
    const run = await fx.vitest([], { FLAKEGUARD_HISTORY_URL: 'postgres://ci:pass Wrd9Secret@h/x' });
    expect(run.output).toContain('postgres://ci:***@h/x');
    expect(run.output).not.toContain('Wrd9Secret');
    expect(run.output).not.toContain('pass ');
  });
});

describe('a test named with @octocat in Markdown output', () => {
  /** The lines of `file` that hold `holding`, outside fenced code (where GitHub makes nothing of text). */
  const lines = (file: string, holding: string): string[] => {
    let fenced = false;
    return readFileSync(path.join(fx.root, file), 'utf8')
      .split('\n')
      .filter((l) => {
        if (l.startsWith('```')) fenced = !fenced;
        return !fenced && l.includes(holding);
      });
  };

  it('gate --markdown: no mention, reference or link in the Fix first line and the table; owners stay mentions', async () => {
    const tries = [12, 14, 13].map((durationMs, i) => ({
      state: i === 1 ? ('failed' as const) : ('passed' as const),
      durationMs,
    }));
    const report = makeGateReport([{ file: 'test/a.test.ts', name: NAME, line: 2, selection: 'new', tries }]);
    const owned = { ...report, tests: report.tests.map((t) => ({ ...t, owners: ['@org/checkout-team'] })) };
    fx.write('ci/shard.json', JSON.stringify({ ...owned, shard: { index: 1, count: 1 } }));
    const run = await runCliInProcess(fx.root, ['gate', '--merge', 'ci/shard.json', '--markdown', 'ci/gate.md']);
    expect(run.exitCode, run.output).toBe(1);
    const named = lines('ci/gate.md', 'pings');
    expect(named.filter((l) => l.startsWith('**Fix first:**'))).toHaveLength(1);
    expect(named.filter((l) => l.startsWith('| '))).toHaveLength(1);
    for (const line of named) {
      for (const live of LIVE) expect(line).not.toMatch(live);
      expect(line).toContain('@&#8203;octocat');
      expect(line).toContain('@org/checkout-team');
    }
  });

  it('triage --markdown: no mention, reference or link in Do first and the finding; owners stay mentions', async () => {
    const run = await runCliInProcess(fx.root, [
      'triage',
      '--log',
      'ci/log.txt',
      '--exit-code',
      '1',
      '--markdown',
      'ci/triage.md',
    ]);
    expect(run.exitCode, run.output).toBe(1);
    const named = lines('ci/triage.md', 'pings');
    expect(named.filter((l) => l.startsWith('**Do first:**'))).toHaveLength(1);
    expect(named.length).toBeGreaterThan(1);
    for (const line of named) for (const live of LIVE) expect(line).not.toMatch(live);
    expect(readFileSync(path.join(fx.root, 'ci/triage.md'), 'utf8')).toContain('@org/checkout-team');
  });
});
