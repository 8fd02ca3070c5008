/**
 * Was the load the gate asked for the load it got? The workers' measured share of the machine
 * against the share asked (workers / CPUs, at most all of it). Far below (under half) means another
 * process or a CPU limit (cgroup, container quota) took the rest, and the tries ran under less
 * load than the report's worker count suggests. Pure.
 */
import type { GateLoad } from './gate-report.js';

/** Below this fraction of the asked share, the gate warns. */
const LOAD_SHORTFALL_RATIO = 0.5;

export function describeLoadShortfall(load: GateLoad): string | null {
  if (load.workers === 0 || load.workersMachineShare === null || load.cpus <= 0) return null;
  const asked = Math.min(load.workers, load.cpus) / load.cpus;
  const got = load.workersMachineShare;
  if (got >= asked * LOAD_SHORTFALL_RATIO) return null;
  const pct = (v: number): string => `${Math.round(v * 100)}%`;
  return `the load was far below what was asked: ${load.workers} busy worker${load.workers === 1 ? '' : 's'} on ${load.cpus} CPU${load.cpus === 1 ? '' : 's'} should take about ${pct(asked)} of the machine, they got ${pct(got)} (measured, /proc): another process or a CPU limit (cgroup, container quota) took the rest, so the tries ran under less load than asked; run the gate on a quieter machine or raise --load`;
}
