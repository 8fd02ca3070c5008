import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fixture } from '../helpers/fixture.js';
import { countProcess } from '../helpers/process-budget.js';
import { printedDuration, records, reporterProject, testFile } from './reporter-fixture.js';

// Vitest's watch mode through its Node API: one run, then the script prints process.exitCode.
const WATCH_SCRIPT = `import { createVitest } from 'vitest/node';
const vitest = await createVitest('test', { watch: true });
await vitest.start();
process.stdout.write('\\nEXIT CODE AFTER RUN: ' + String(process.exitCode ?? 'unset') + '\\n');
await vitest.close();
process.exit(0);
`;

describe('reporter: watch mode', () => {
  let fx: Fixture;
  let stdout: string;
  beforeAll(async () => {
    fx = await reporterProject(
      { 'slow.test.ts': testFile(`test('dawdles', async () => { await sleep(300); });`), 'watch.mjs': WATCH_SCRIPT },
      { yaml: 'budget:\n  test: 200ms\n' },
    );
    // watch.mjs starts Vitest (createVitest in watch mode) in that process.
    countProcess('vitest');
    const result = await execa(process.execPath, [path.join(fx.root, 'watch.mjs')], {
      cwd: fx.root,
      reject: false,
      stdin: 'ignore',
      env: { NO_COLOR: '1', CI: 'true', GITHUB_ACTIONS: '', VITEST: '', VITEST_WORKER_ID: '', VITEST_POOL_ID: '' },
      timeout: 60_000,
    });
    stdout = String(result.stdout);
  });
  afterAll(() => fx.remove());

  it('reports the violation but never sets the exit code', () => {
    expect(stdout).toMatch(
      new RegExp(`over budget  slow\\.test\\.ts:3  dawdles  ${printedDuration(fx, 'dawdles')} > 200ms`),
    );
    expect(stdout).toContain('EXIT CODE AFTER RUN: unset');
    const [record] = records(fx);
    expect(record?.watch).toBe(true);
    expect(record?.exitCode).toBeNull();
  });
});
