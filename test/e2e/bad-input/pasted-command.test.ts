/**
 * Bad input catalogue: the allowance command the reporter prints for a test over its budget works
 * when pasted (issue 48, finding 13), whatever the test's name holds: a line break or an ESC is
 * printed as an escape inside `$'...'`, which the shell (bash from PATH, as a user's shell) turns
 * back into that character, so `allowances add` finds the test. Each printed command is run here,
 * and the next run is within budget. Needs `npm run build`.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BUILT, createFixture, type Fixture, vitestConfigWithReporter } from '../../helpers/fixture.js';
import { countProcess } from '../../helpers/process-budget.js';

const NAMES = ['line one\nline two', 'red \u001b[31m text', "it's \\ a $HOME `name`"];
const TEST_FILE = `import { it } from 'vitest';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
${NAMES.map((n) => `it(${JSON.stringify(n)}, async () => { await sleep(300); });`).join('\n')}
`;

let fx: Fixture;
let bin: string;
beforeAll(async () => {
  fx = await createFixture({
    git: true,
    files: {
      'vitest.config.ts': vitestConfigWithReporter(),
      'flakeguard.yaml': 'budget:\n  test: 50ms\n',
      'test/names.test.ts': TEST_FILE,
    },
  });
  // `flakeguard` on PATH, as an installed package puts it: the built CLI.
  bin = mkdtempSync(path.join(tmpdir(), 'flakeguard-bin-'));
  writeFileSync(
    path.join(bin, 'flakeguard'),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI_BUILT)} "$@"\n`,
  );
  chmodSync(path.join(bin, 'flakeguard'), 0o755);
});
afterAll(() => {
  fx.remove();
  rmSync(bin, { recursive: true, force: true });
});

describe('the printed allowance command, pasted into a shell', () => {
  it('adds the allowance of each test, whose names hold a line break, an ESC and shell characters', async () => {
    const red = await fx.vitest();
    expect(red.exitCode, red.output).toBe(1);
    const commands = red.stderr
      .concat(red.stdout)
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.startsWith('flakeguard allowances add '));
    expect(commands, red.output).toHaveLength(NAMES.length);
    for (const command of commands) {
      expect(command).not.toMatch(/[\u0000-\u001f]/);
      countProcess('cli');
      const pasted = command.replace('<why it needs more time>', 'sleeps on purpose');
      const out = execFileSync('bash', ['-c', pasted], {
        cwd: fx.root,
        encoding: 'utf8',
        env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env['PATH'] ?? ''}` },
      });
      expect(out).toMatch(/^added allowance [0-9a-f]+ for /);
    }
    const green = await fx.vitest();
    expect(green.exitCode, green.output).toBe(0);
  });
});
