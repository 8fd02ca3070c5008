/**
 * The stop watch (issue 48, finding 12) on real processes: a process of the tries a signal stopped is
 * reported on the second check that sees it stopped, and one the gate's own signal pacer stopped
 * (io/load/pacer.ts pausedPids) never is. The tree: a parent process (standing for Vitest) and its
 * child (a worker with no try open).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { readProcTable } from '../../../src/io/process/proc.js';
import { createStopWatch } from '../../../src/io/vitest/stop-watch.js';
import type { TryWatchdog } from '../../../src/io/vitest/try-watchdog.js';
import { sleep } from '../../helpers/processes.js';

let parent: ChildProcess | null = null;
afterEach(() => {
  if (parent?.pid !== undefined) {
    try {
      process.kill(-parent.pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  parent = null;
});

/** A parent with one child, in a process group of their own; resolves with both pids. */
async function startTree(): Promise<{ root: number; child: number }> {
  const script =
    "const c = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); console.log(c.pid); setInterval(() => {}, 1000);";
  parent = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'], detached: true });
  const child = await new Promise<number>((resolve) =>
    parent?.stdout?.once('data', (d: Buffer) => resolve(Number(String(d).trim()))),
  );
  return { root: parent.pid ?? 0, child };
}

async function waitForState(pid: number, state: string): Promise<void> {
  for (let i = 0; i < 200 && readProcTable()?.get(pid)?.state !== state; i++) await sleep(10);
}

const noWatchdog: TryWatchdog = { observe: () => {}, check: () => 0, failWorker: () => 0, killed: [] };

describe('createStopWatch', () => {
  it.skipIf(readProcTable() === null)(
    'reports a stopped process on its second check, not one the pacer stopped',
    async () => {
      const { root, child } = await startTree();
      process.kill(child, 'SIGSTOP');
      await waitForState(child, 'T');
      const paced = createStopWatch({
        root: () => root,
        projectRoot: '/p',
        watchdog: noWatchdog,
        lines: [],
        pacer: { pausedPids: () => new Set([child]) },
      });
      paced.check();
      paced.check();
      expect(paced.stopped).toBeNull();
      const watch = createStopWatch({
        root: () => root,
        projectRoot: '/p',
        watchdog: noWatchdog,
        lines: [],
        pacer: { pausedPids: () => new Set() },
      });
      watch.check();
      expect(watch.stopped).toBeNull();
      watch.check();
      expect(watch.stopped).toMatch(new RegExp(`^Vitest \\(pid ${child}\\) was stopped by a signal`));
    },
  );
});
