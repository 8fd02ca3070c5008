/** Types of ci-speed-simulation.mjs. */
import type { SpeedRun } from '../../../src/core/calibration/ci-speed.js';

export function seeded(seed: number): () => number;
export function simulateRuns(
  rand: () => number,
  options: { tests: number; ratio: number; localRuns: number; ciRuns: number; sd: number },
): { ci: SpeedRun[]; local: SpeedRun[] };
