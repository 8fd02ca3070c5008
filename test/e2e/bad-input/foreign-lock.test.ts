/**
 * Bad input catalogue: a history.lock naming another host (issue 48, finding 10), as in a
 * `.flakeguard/` restored from a CI cache. Its process cannot be checked from here, so its age is
 * judged: one neither taken nor refreshed for an hour is stale and taken over with one notice,
 * instead of every run waiting 30 s and storing nothing for ever (docs/history.md, "writers").
 * Needs `npm run build`.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatLockOwner } from '../../../src/core/lock-owner.js';
import { CLI_BUILT, createFixture, type Fixture, vitestConfigWithReporter } from '../../helpers/fixture.js';
import { seedHistoryStore } from '../../helpers/history-template.js';
import { runCliInProcess } from '../../helpers/in-process-cli.js';
import { countProcess } from '../../helpers/process-budget.js';

let fx: Fixture;
const LOCK = (): string => path.join(fx.root, '.flakeguard/cache/history.lock');
const FIVE_WEEKS_AGO = new Date(Date.now() - 35 * 86_400_000);

/** A lock taken five weeks ago by a process on another host, its file as old (as a cache restores it). */
function writeForeignLock(): string {
  const content = formatLockOwner({
    pid: 4242,
    host: 'ci-runner-7',
    takenAt: FIVE_WEEKS_AGO.toISOString(),
    token: 'feedfacefeedface',
  });
  mkdirSync(path.dirname(LOCK()), { recursive: true });
  writeFileSync(LOCK(), content);
  utimesSync(LOCK(), FIVE_WEEKS_AGO, FIVE_WEEKS_AGO);
  return content;
}

const NOTICE = (lock: string) =>
  `flakeguard: notice: took over the stale lock ${lock}: it was taken by process 4242 on ci-runner-7 at ${FIVE_WEEKS_AGO.toISOString()} and not refreshed for more than 1h (a process on another host cannot be checked from here)`;

beforeAll(async () => {
  fx = await createFixture({
    git: true,
    files: {
      'vitest.config.ts': vitestConfigWithReporter(),
      'flakeguard.yaml': 'history: true\n',
      'test/a.test.ts': "import { it } from 'vitest';\nit('adds', () => {});\n",
    },
  });
  seedHistoryStore(fx.root);
}, 120_000);
afterAll(() => fx.remove());

describe('a five-week-old history.lock from another host', () => {
  it('the reporter takes it over with one notice and stores the run, without waiting', async () => {
    writeForeignLock();
    const started = Date.now();
    const run = await fx.vitest();
    expect(run.exitCode, run.output).toBe(0);
    expect(run.stderr.split('\n').filter((l) => l.includes('took over the stale lock'))).toEqual([NOTICE(LOCK())]);
    expect(run.output).not.toContain('not stored in history');
    // The 30 s wait is gone: well under it even on a loaded machine.
    expect(Date.now() - started).toBeLessThan(25_000);
    expect(existsSync(LOCK())).toBe(false);
    const history = await runCliInProcess(fx.root, ['history', '--json']);
    expect(history.exitCode, history.output).toBe(0);
    expect(JSON.parse(history.stdout)).toMatchObject({ runs: 1 });
  });

  it('flakeguard history takes it over the same way', async () => {
    writeForeignLock();
    const run = await runCliInProcess(fx.root, ['history']);
    expect(run.exitCode, run.output).toBe(0);
    expect(run.stderr.split('\n').filter((l) => l.includes('took over the stale lock'))).toEqual([NOTICE(LOCK())]);
    expect(existsSync(LOCK())).toBe(false);
  });

  it('one that its holder refreshed a minute ago is still held: the command waits for it, naming it', async () => {
    const content = writeForeignLock();
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(LOCK(), minuteAgo, minuteAgo);
    countProcess('cli');
    const child = spawn(process.execPath, [CLI_BUILT, 'history'], { cwd: fx.root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    const waiting = new Promise<void>((resolve) =>
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (stderr.includes('waiting for history store')) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await waiting;
    child.kill('SIGINT');
    expect(await exited, stderr).toBe(130);
    expect(stderr).toContain(`in use by process 4242 on ci-runner-7 since ${FIVE_WEEKS_AGO.toISOString()}`);
    expect(stderr).not.toContain('took over the stale lock');
    expect(readFileSync(LOCK(), 'utf8')).toBe(content);
  });
});
