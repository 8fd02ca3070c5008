/**
 * Starts a command the way flakeguard starts every child: under a guard that leads its own process
 * group and dies with flakeguard (see guard-source.ts), registered so that flakeguard's exit and an
 * abort stop the whole group. Returns execa's result; `stop()` kills the group at any time.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { execa, type Options, type ResultPromise } from 'execa';
import { GUARD_SOURCE } from './guard-source.js';
import { trackProcessGroup } from './process-group.js';

export interface GuardedOptions {
  readonly cwd: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  /** Interleave stdout and stderr in `all`. */
  readonly all?: boolean;
  /**
   * A temp folder of flakeguard's: the child's TMPDIR is made inside it (so Vitest's own temp files
   * land there), and the guard removes it if flakeguard dies before it could (SIGKILL).
   */
  readonly tempFolder?: string;
  /**
   * More folders of flakeguard's that the guard removes with tempFolder if flakeguard dies first
   * (a gate's seed claims, which outlive any one Vitest child: vitest-session.ts).
   */
  readonly alsoRemove?: readonly string[];
}

function tempEnv(folder: string, alsoRemove: readonly string[]): Record<string, string> {
  const tmp = path.join(folder, 'tmp');
  mkdirSync(tmp, { recursive: true });
  return { TMPDIR: tmp, TMP: tmp, TEMP: tmp, FLAKEGUARD_GUARD_CLEANUP: JSON.stringify([folder, ...alsoRemove]) };
}

export interface GuardedProcess {
  readonly result: ResultPromise<Options>;
  readonly pid: number | undefined;
  stop(): void;
}

export function spawnGuarded(command: string, args: readonly string[], options: GuardedOptions): GuardedProcess {
  const child = execa(process.execPath, ['-e', GUARD_SOURCE, '--', command, ...args], {
    cwd: options.cwd,
    ...(options.env || options.tempFolder
      ? {
          env: { ...options.env, ...(options.tempFolder ? tempEnv(options.tempFolder, options.alsoRemove ?? []) : {}) },
        }
      : {}),
    detached: true,
    reject: false,
    stdin: 'pipe',
    all: options.all ?? false,
  });
  child.stdin?.on('error', () => undefined);
  const untrack = trackProcessGroup(child.pid);
  const stop = (): void => untrack();
  options.signal?.addEventListener('abort', stop, { once: true });
  void child.finally(() => options.signal?.removeEventListener('abort', stop)).catch(() => undefined);
  return { result: child as unknown as ResultPromise<Options>, pid: child.pid, stop };
}
