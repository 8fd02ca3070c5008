/**
 * A Vitest run of a fixture slowed at a known factor by the gate's own slowdown machinery
 * (src/io/load): Vitest is started in a process group of its own and that group is duty-cycled
 * as the gate duty-cycles its tries. One small function, so that when the gate's pacer changes,
 * this is the one place the calibration e2e (test/e2e/gate-calibration.test.ts) is re-pointed.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { startDutyCycle } from '../../src/io/load/duty-cycle.js';
import { REPO_ROOT } from './fixture.js';

export interface SlowedRun {
  readonly exitCode: number;
  readonly output: string;
  /** wall / (wall - stopped) of the run, as the duty cycle accounted it. */
  readonly duty: number;
}

/** `vitest run` in `root` with `env` (the whole environment), its process group slowed at `factor`. */
export async function runVitestSlowedAt(root: string, factor: number, env: NodeJS.ProcessEnv): Promise<SlowedRun> {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'node_modules/vitest/vitest.mjs'), 'run'], {
    cwd: root,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const pgid = child.pid as number;
  // A fixed duty on top of whatever the machine gives both runs: the "CI" run is `factor` times
  // slower than the runs here on this machine, not `factor` times an idle core (ambient 1 and no
  // re-measuring, so the cycle does not count the machine's own load towards the factor).
  const cycle = startDutyCycle({ pgid, target: factor, ambient: 1, measureEveryMs: Number.POSITIVE_INFINITY });
  const exitCode = await new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
  const summary = cycle.stop();
  const running = summary.wallMs - summary.stoppedMs;
  return { exitCode, output, duty: running > 0 ? summary.wallMs / running : 1 };
}
