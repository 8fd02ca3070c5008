/**
 * The writer cannot corrupt: twenty `flakeguard allowances add` at once on one allowance file, ten
 * spawned processes and ten in the test's own process (test/helpers/in-process-cli.ts, one after
 * another while the ten processes run), for tests whose names hold quotes with a newline, spaces at
 * the ends, control characters, unicode and 2,000 characters. Every entry is kept, `list --json`
 * gives back each exact name, the file parses (`check` is clean), and what `add` printed has its
 * control characters escaped. Eleven processes contend for the file's lock (a process start costs
 * about 0.5 CPU-s; the lock is across processes, so contention needs processes, not twenty).
 *
 * The fixture has no Vitest installed (its node_modules link is removed): every `allowances` command
 * then takes the test files Vitest's default include takes (io/vitest/list-test-files.ts) instead of
 * starting the project's Vitest to ask, which cost about 0.7 CPU-s in each add. Which files are tests
 * is not the subject here (test/io/vitest/list-test-files.test.ts asks Vitest, with and without it
 * installed); processes writing one file at once is.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture } from '../helpers/fixture.js';
import { flakeguardInProcess } from '../helpers/in-process-cli.js';

const NAMES = [
  'quote " and\nnewline',
  'single \' and "double" quotes: #1',
  '  leading and trailing spaces  ',
  'escape \u001b[2J clears the screen',
  'bell \u0007 and tab \t inside',
  'unicode é 日本 😀',
  '- looks like: a list',
  '| block > folded',
  'x'.repeat(2000),
  'line separator \u2028 here',
  ...Array.from({ length: 10 }, (_, i) => `plain ${i}`),
];

let fixture: Fixture | undefined;
afterEach(() => {
  fixture?.remove();
  fixture = undefined;
});

describe('allowance writers', () => {
  it('twenty concurrent adds on one file keep every entry and every exact name', async () => {
    const tests = NAMES.map((n) => `it(${JSON.stringify(n)}, () => {});`).join('\n');
    const fx = await createFixture({
      files: {
        'flakeguard.yaml': 'budget:\n  test: 200ms\n',
        'test/names.test.ts': `import { it } from 'vitest';\n${tests}\n`,
      },
    });
    fixture = fx;
    rmSync(path.join(fx.root, 'node_modules'));
    const adds = await Promise.all(
      NAMES.map((name, i) => {
        const args = ['allowances', 'add', '--file', 'test/names.test.ts', `--test=${name}`];
        const add = [...args, '--budget', '1s', '--reason', 'slow'];
        return i % 2 === 0 ? fx.flakeguard(add) : flakeguardInProcess(fx, add);
      }),
    );
    for (const add of adds) expect(add.exitCode, add.output).toBe(0);
    const printed = adds.map((a) => a.stdout).join('\n');
    // eslint-disable-next-line no-control-regex
    expect(printed).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u2028]/);
    expect(printed).toContain('escape \\u001b[2J clears the screen');
    const list = await flakeguardInProcess(fx, ['allowances', 'list', '--json']);
    expect(list.exitCode, list.output).toBe(0);
    const rows = (JSON.parse(list.stdout) as { allowances: { stored: { fullName: string }; match: string }[] })
      .allowances;
    expect(rows.map((r) => r.stored.fullName).sort()).toEqual([...NAMES].sort());
    expect(rows.every((r) => r.match === 'exact')).toBe(true);
    const check = await flakeguardInProcess(fx, ['allowances', 'check']);
    expect(check.stdout).toBe(`${NAMES.length} allowances checked: no problems.`);
  }, 120_000);
});
