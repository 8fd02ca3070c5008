/**
 * One Vitest for a whole gate (issue 45): the gate's Vitest child started once, on the first job,
 * and given every later job of the same project root and setup (vitest-session-jobs.ts), so a
 * gate starts Vitest twice in all (this child and the list of its test files) instead of once per
 * check. A job that is cut short (the deadline, an abort) stops the child with it; the next job
 * starts a new one. `close()` ends the child and removes the session folder; the child also dies
 * with flakeguard (io/process/spawn-guarded.ts).
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TrySeed } from '../../core/gate/runner-protocol.js';
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

interface SessionJob {
  readonly job: VitestJob;
  readonly result: Promise<SessionJobEnd>;
  /** Stops the job: the session's child with it (a deadline, an abort). */
  stop(): void;
  /** The session child's process (its guard). */
  pid(): number | undefined;
  /** Removes the job's files. */
  end(): void;
}

export interface VitestSession {
  /** The temporary folder of its latest Vitest child (removed when that child is stopped or closed). */
  readonly folder: string;
  readonly root: string;
  readonly setup: VitestSetup;
  /** Runs one job: `makeJob` gets the job's own folder for the files it names. */
  submit(makeJob: (folder: string) => VitestJob): SessionJob;
  /** The gate's run seed: every try of every job derives its own from it (absent: tries not seeded). */
  readonly seed?: TrySeed;
  /** Where the tries of every job claim their numbers (the seed's, core/gate/runner-protocol.ts TrySeeding). */
  readonly seedClaims?: string;
  /** How many Vitest children the session started (1 unless a job was cut short). */
  starts(): number;
  close(): void;
}

const POLL_MS = 5;

/**
 * The session's seed claims are one folder for the whole gate (every try its own number, across
 * Vitest children), only named here: the runner makes it at the first try, inside a live child,
 * whose guard removes it if flakeguard dies (even by SIGKILL); close() removes it otherwise.
 */
function seedingOf(seed: TrySeed | undefined): { readonly seed?: TrySeed; readonly seedClaims?: string } {
  return seed === undefined ? {} : { seed, seedClaims: path.join(os.tmpdir(), `flakeguard-seeds-${randomUUID()}`) };
}

export function openVitestSession(
  root: string,
  setup: VitestSetup,
  signal?: AbortSignal,
  seed?: TrySeed,
): VitestSession {
  let child: SessionChild | null = null;
  const seeding = seedingOf(seed);
  const folders: string[] = [];
  let started = 0;
  const start = (): SessionChild => {
    const c = startChild(root, signal, seeding.seedClaims);
    folders.push(c.folder);
    started += 1;
    return c;
  };
  const kill = (c: SessionChild): void => {
    stopChild(c);
    if (child === c) child = null;
  };
  return {
    get folder() {
      return folders.at(-1) ?? '';
    },
    root,
    setup,
    ...seeding,
    starts: () => started,
    submit(makeJob) {
      if (child === null || child.ended) child = start();
      const c = child;
      const { n, jobDir, job } = writeJob(c, makeJob);
      return {
        job,
        result: waitForJob(c, n),
        stop: () => kill(c),
        pid: () => c.process.pid,
        end: () => rmSync(jobDir, { recursive: true, force: true }),
      };
    },
    close() {
      if (seeding.seedClaims !== undefined) rmSync(seeding.seedClaims, { recursive: true, force: true });
      const c = child;
      child = null;
      if (c !== null) closeChild(c);
    },
  };
}

/** How long a child may take to close its Vitest before its group is killed. */
const CLOSE_GRACE_MS = 5000;

/** Asks the child to close its Vitest and exit; its group goes too if it does not within CLOSE_GRACE_MS. */
function closeChild(c: SessionChild): void {
  if (c.ended) {
    stopChild(c);
    return;
  }
  writeFileSync(closeFileOf(c.folder), '');
  // The timer ends with the child: a pending 5 s timer kept flakeguard alive 5 s after every gate.
  const timer = setTimeout(() => stopChild(c), CLOSE_GRACE_MS);
  void c.process.result.finally(() => {
    clearTimeout(timer);
    stopChild(c);
  });
}

/** A session child, in a folder of its own that holds its job files and every job's own files. */
function startChild(root: string, signal: AbortSignal | undefined, seedClaims: string | undefined): SessionChild {
  // Its guard removes the folder (and the seed claims) when flakeguard dies, even by SIGKILL (io/process/guard-source.ts).
  const folder = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-session-'));
  const script = builtFile('io/vitest/vitest-gate-child.js');
  const guarded = spawnGuarded(process.execPath, [script, SESSION_FLAG, folder], {
    cwd: root,
    tempFolder: folder,
    ...(seedClaims === undefined ? {} : { alsoRemove: [seedClaims] }),
    ...(signal ? { signal } : {}),
  });
  const c: SessionChild = { process: guarded, folder, next: 0, ended: false };
  void guarded.result.finally(() => {
    c.ended = true;
  });
  return c;
}

/** Job n of the child: its own folder, and its file, written whole (a temporary name, then renamed). */
function writeJob(
  c: SessionChild,
  makeJob: (folder: string) => VitestJob,
): { n: number; jobDir: string; job: VitestJob } {
  const n = c.next;
  c.next += 1;
  const jobDir = path.join(c.folder, `job-${n}`);
  mkdirSync(jobDir);
  const job = makeJob(jobDir);
  const staged = `${jobFileOf(c.folder, n)}.tmp`;
  writeFileSync(staged, JSON.stringify(job));
  renameSync(staged, jobFileOf(c.folder, n));
  return { n, jobDir, job };
}

/** Kills the child's tree and removes its folder once it has ended. */
function stopChild(c: SessionChild): void {
  if (c.process.pid !== undefined) killProcessTree(c.process.pid);
  c.process.stop();
  void c.process.result.finally(() => rmSync(c.folder, { recursive: true, force: true }));
}

interface SessionChild {
  readonly process: GuardedProcess;
  readonly folder: string;
  next: number;
  ended: boolean;
}

/** Resolves when the child wrote job n's done file (exit code 0), or with the child's end when it ended first. */
async function waitForJob(c: SessionChild, n: number): Promise<SessionJobEnd> {
  const done = doneFileOf(c.folder, n);
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
