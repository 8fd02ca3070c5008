/**
 * One Vitest for a whole gate (issue 45): the gate's Vitest child started once, on the first job,
 * and given every later job of the same project root and setup (vitest-session-jobs.ts), so a
 * gate starts Vitest twice in all (this child and the list of its test files) instead of once per
 * check. A job that is cut short (the deadline, an abort) stops the child with it; the next job
 * starts a new one. `close()` ends the child and removes the session folder; the child also dies
 * with flakeguard (io/process/spawn-guarded.ts).
 */
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { killProcessTree } from '../process/process-tree.js';
import { type GuardedProcess, spawnGuarded } from '../process/spawn-guarded.js';
import { builtFile } from './child-job.js';
import type { VitestJob } from './vitest-job.js';
import { closeFileOf, doneFileOf, jobFileOf, SESSION_FLAG } from './vitest-session-jobs.js';
import type { VitestSetup } from './vitest-setup.js';

/** How a job ended: its result file was written (exitCode 0), or the child ended first. */
export interface SessionJobEnd {
  readonly exitCode?: number | undefined;
  readonly signal?: string | undefined;
  readonly stdout?: unknown;
  readonly stderr?: unknown;
}

export interface SessionJob {
  readonly job: VitestJob;
  readonly result: Promise<SessionJobEnd>;
  /** Stops the job: the session's child with it (a deadline, an abort). */
  stop(): void;
  /** Removes the job's files. */
  end(): void;
}

export interface VitestSession {
  /** The session's temporary folder (removed by close). */
  readonly folder: string;
  readonly root: string;
  readonly setup: VitestSetup;
  /** Runs one job: `makeJob` gets the job's own folder for the files it names. */
  submit(makeJob: (folder: string) => VitestJob): SessionJob;
  /** How many Vitest children the session started (1 unless a job was cut short). */
  starts(): number;
  close(): void;
}

const POLL_MS = 5;

export function openVitestSession(root: string, setup: VitestSetup, signal?: AbortSignal): VitestSession {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-session-'));
  let child: { process: GuardedProcess; dir: string; next: number; ended: boolean } | null = null;
  let started = 0;
  let jobs = 0;
  const start = (): NonNullable<typeof child> => {
    const dir = path.join(folder, `vitest-${started}`);
    mkdirSync(dir);
    started += 1;
    const process_ = spawnGuarded(
      globalThis.process.execPath,
      [builtFile('io/vitest/vitest-gate-child.js'), SESSION_FLAG, dir],
      {
        cwd: root,
        tempFolder: dir,
        ...(signal ? { signal } : {}),
      },
    );
    const c = { process: process_, dir, next: 0, ended: false };
    void process_.result.finally(() => {
      c.ended = true;
    });
    return c;
  };
  const kill = (c: NonNullable<typeof child>): void => {
    if (c.process.pid !== undefined) killProcessTree(c.process.pid);
    c.process.stop();
    if (child === c) child = null;
  };
  return {
    folder,
    root,
    setup,
    starts: () => started,
    submit(makeJob) {
      if (child === null || child.ended) child = start();
      const c = child;
      const n = c.next;
      c.next += 1;
      const jobDir = path.join(folder, `job-${jobs}`);
      jobs += 1;
      mkdirSync(jobDir);
      const job = makeJob(jobDir);
      const staged = `${jobFileOf(c.dir, n)}.tmp`;
      writeFileSync(staged, JSON.stringify(job));
      renameSync(staged, jobFileOf(c.dir, n));
      const result = waitForJob(c, n);
      return {
        job,
        result,
        stop: () => kill(c),
        end: () => rmSync(jobDir, { recursive: true, force: true }),
      };
    },
    close() {
      const c = child;
      child = null;
      if (c && !c.ended) {
        writeFileSync(closeFileOf(c.dir), '');
        // The child closes its Vitest and exits; the guard's group goes too if it does not.
        void Promise.race([c.process.result, sleep(5000)]).finally(() => kill(c));
      }
      void (c?.process.result ?? Promise.resolve()).finally(() => rmSync(folder, { recursive: true, force: true }));
    },
  };
}

/** Resolves when the child wrote job n's done file (exit code 0), or with the child's end when it ended first. */
async function waitForJob(
  c: { readonly process: GuardedProcess; readonly dir: string; ended: boolean },
  n: number,
): Promise<SessionJobEnd> {
  const done = doneFileOf(c.dir, n);
  for (;;) {
    if (existsSync(done)) return { exitCode: 0 };
    if (c.ended) {
      const r = await c.process.result;
      return existsSync(done)
        ? { exitCode: 0 }
        : { exitCode: r.exitCode, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
    }
    await sleep(POLL_MS);
  }
}
