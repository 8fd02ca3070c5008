/**
 * The one way flakeguard stops what it started. Every child (Vitest, its workers, load workers) runs
 * in a process group of its own, led by a guard (see guard-source.ts) that holds a pipe from
 * flakeguard: when flakeguard exits, even by SIGKILL, the pipe closes and the guard kills its group.
 * While flakeguard lives, it stops a group with stopProcessGroup, and on exit it stops every group
 * still registered.
 */
const live = new Set<number>();
let exitHookInstalled = false;

/** Kills the whole group led by `pid` (falls back to the process alone). Never throws. */
export function stopProcessGroup(pid: number | undefined, signal: NodeJS.Signals = 'SIGKILL'): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/** Registers a group to stop when flakeguard exits; returns the function that stops and forgets it. */
export function trackProcessGroup(pid: number | undefined): () => void {
  if (pid === undefined) return () => undefined;
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const group of live) stopProcessGroup(group);
    });
  }
  live.add(pid);
  return () => {
    stopProcessGroup(pid);
    live.delete(pid);
  };
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
