/**
 * Starts a command the way flakeguard starts every child: under a guard that leads its own process
 * group and dies with flakeguard (see guard-source.ts), registered so that flakeguard's exit and an
 * abort stop the whole group. Returns execa's result; `stop()` kills the group at any time.
 */
import { execa, type Options, type ResultPromise } from 'execa';
import { GUARD_SOURCE } from './guard-source.js';
import { trackProcessGroup } from './process-group.js';

export interface GuardedOptions {
  readonly cwd: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  /** Interleave stdout and stderr in `all`. */
  readonly all?: boolean;
}

export interface GuardedProcess {
  readonly result: ResultPromise<Options>;
  readonly pid: number | undefined;
  stop(): void;
}

export function spawnGuarded(command: string, args: readonly string[], options: GuardedOptions): GuardedProcess {
  const child = execa(process.execPath, ['-e', GUARD_SOURCE, '--', command, ...args], {
    cwd: options.cwd,
    ...(options.env ? { env: options.env } : {}),
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
