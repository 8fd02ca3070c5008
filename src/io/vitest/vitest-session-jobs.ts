/**
 * The two ends of a gate's Vitest session (vitest-session.ts): the gate writes job `n` as
 * `job-<n>.json` in the session folder (atomically: a temporary name, then renamed), the child runs
 * the jobs in order on its one Vitest and writes `done-<n>` after each one's result; a `close` file
 * ends the child. Each job's environment (the runner's plan, the pacer's cgroup, the factor asked)
 * is set in the child's process.env for its runs: Vitest gives a worker the environment of its
 * process when the run starts the worker.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { VitestJob } from './vitest-job.js';

export const SESSION_FLAG = '--session';
/** How often the child looks for its next job (ms). */
const POLL_MS = 5;

export const jobFileOf = (folder: string, n: number): string => path.join(folder, `job-${n}.json`);
export const doneFileOf = (folder: string, n: number): string => path.join(folder, `done-${n}`);
export const closeFileOf = (folder: string): string => path.join(folder, 'close');

/** Runs every job written to `folder`, in order, until its close file appears. */
export async function serveJobs(folder: string, run: (job: VitestJob) => Promise<void>): Promise<void> {
  if (folder === '' || !existsSync(folder))
    throw new Error(`${SESSION_FLAG} needs the session folder (got "${folder}")`);
  for (let n = 0; ; n += 1) {
    const file = jobFileOf(folder, n);
    while (!existsSync(file)) {
      if (existsSync(closeFileOf(folder))) return;
      await sleep(POLL_MS);
    }
    const job = JSON.parse(readFileSync(file, 'utf8')) as VitestJob;
    const restore = applyEnv(job.env ?? {});
    try {
      await run(job);
    } finally {
      restore();
    }
    writeFileSync(doneFileOf(folder, n), '');
  }
}

/** Sets the job's variables in process.env; returns what puts the old values back. */
function applyEnv(env: Readonly<Record<string, string>>): () => void {
  const before = Object.keys(env).map((k) => [k, process.env[k]] as const);
  Object.assign(process.env, env);
  return () => {
    for (const [k, v] of before) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
}
