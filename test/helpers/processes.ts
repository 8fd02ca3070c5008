/** Waiting for processes to exit, by PID, in the tests that check flakeguard leaves none behind. */
import { isProcessAlive } from '../../src/io/process/process-group.js';

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits up to `ms` (3 s: what a child of flakeguard is allowed) for every pid to exit; returns those still alive. */
export async function survivors(pids: readonly number[], ms = 3000): Promise<number[]> {
  const end = Date.now() + ms;
  let alive = pids.filter(isProcessAlive);
  while (alive.length > 0 && Date.now() < end) {
    await sleep(50);
    alive = alive.filter(isProcessAlive);
  }
  return alive;
}
