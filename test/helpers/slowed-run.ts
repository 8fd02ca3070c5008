/**
 * A Vitest run of a fixture slowed at a known factor by the gate's own pacer (src/io/load/pacer.ts):
 * the whole `vitest run` process tree is paced as one tree (a cgroup CPU quota of 1/factor where the
 * kernel offers one, else signals on CPU credit), so the "CI" run's CPU work takes `factor` times as
 * long as here. One small function, the one place the calibration e2e
 * (test/e2e/gate-calibration.test.ts) depends on the pacer.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { tryFactor } from '../../src/core/gate/pacer.js';
import { now, startPacer } from '../../src/io/load/pacer.js';
import { REPO_ROOT } from './fixture.js';

export interface SlowedRun {
  readonly exitCode: number;
  readonly output: string;
  /** The factor the tree measurably got over the run ((cpu + wait + stopped) / cpu), or null when too short to measure. */
  readonly factor: number | null;
  /** How the tree was paced (cgroup-v1, cgroup-v2, signals, ...). */
  readonly method: string;
}

/** `vitest run` in `root` with `env` (the whole environment), its process tree paced at `factor`. */
export async function runVitestSlowedAt(root: string, factor: number, env: NodeJS.ProcessEnv): Promise<SlowedRun> {
  const pacer = startPacer(factor);
  const started = now();
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'node_modules/vitest/vitest.mjs'), 'run'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const pid = child.pid as number;
    pacer.addWorker(pid, pid);
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exitCode = await new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
    const got = tryFactor(pacer.window(pid, started, now()));
    return { exitCode, output, factor: got.factor, method: pacer.method.kind };
  } finally {
    pacer.stop();
    child.kill('SIGKILL');
  }
}
