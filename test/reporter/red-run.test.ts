import { afterEach, describe, expect, it } from 'vitest';
import type { Fixture } from '../helpers/fixture.js';
import { lastLine, records, reporterProject, testFile } from './reporter-fixture.js';

const fixtures: Fixture[] = [];
afterEach(() => {
  for (const f of fixtures.splice(0)) f.remove();
});

async function runRed(files: Record<string, string>) {
  const fx = await reporterProject(files, { yaml: 'budget:\n  test: 5s\n' });
  fixtures.push(fx);
  return { fx, run: await fx.vitest() };
}

describe('reporter: a red run with no failing test says why', () => {
  it('names an unhandled rejection and the file it came from', async () => {
    const { fx, run } = await runRed({
      'ok.test.ts': testFile(`test('fine', () => {});`),
      'unhandled.test.ts': testFile(
        `test('starts work', () => { void Promise.reject(new Error('late rejection boom')); });\ntest('next waits', async () => { await sleep(100); });`,
      ),
    });
    expect(run.exitCode).toBe(1);
    expect(lastLine(run.stdout)).toBe(
      'flakeguard: run failed with no failing test: 1 unhandled error (Unhandled Rejection from unhandled.test.ts)',
    );
    expect(run.stdout).toMatch(/unhandled {2}Unhandled Rejection from unhandled\.test\.ts .*: late rejection boom/);
    expect(records(fx)[0]?.unhandledErrors).toEqual([
      expect.objectContaining({
        type: 'Unhandled Rejection',
        file: 'unhandled.test.ts',
        message: 'late rejection boom',
      }),
    ]);
  });

  it('names a file that failed to load', async () => {
    const { run } = await runRed({
      'ok.test.ts': testFile(`test('fine', () => {});`),
      'broken.test.ts': `import './does-not-exist.js';\nimport { test } from 'vitest';\ntest('never collected', () => {});\n`,
    });
    expect(run.exitCode).toBe(1);
    expect(lastLine(run.stdout)).toMatch(
      /^flakeguard: run failed with no failing test: 1 file failed to load \(broken\.test\.ts: .*does-not-exist/,
    );
  });

  it('names a crashed worker and the file it was running', async () => {
    const { fx, run } = await runRed({
      'crash.test.ts': testFile(`test('kills its worker', () => { process.kill(process.pid, 'SIGKILL'); });`),
    });
    expect(run.exitCode).toBe(1);
    expect(lastLine(run.stdout)).toMatch(
      /^flakeguard: run failed with no failing test: a test worker crashed while running crash\.test\.ts/,
    );
    expect(records(fx)[0]?.verdict?.causes).toContain('crashed-worker');
  });
});
