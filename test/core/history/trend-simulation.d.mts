/** Types of trend-simulation.mjs. */
export function seeded(seed: number): () => number;
export function gaussian(rand: () => number): number;
export function lineWithNoise(rand: () => number, n: number, base: number, slope: number, sd: number): number[];
