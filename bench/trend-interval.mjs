// The history trend's statistics measured on simulated series (npm run build first):
//   node bench/trend-interval.mjs [--series 1000]
// For each case, 1,000 series of a straight line plus Gaussian noise (seeded: the same figures every
// run): how often Sen's 95% interval covers the true slope, how often a flat series has a crossing
// claimed, and how often a steady slowdown is projected with a range holding the true crossing.
import { computeDurationTrend, unitsToLimitRange } from '../dist/core/history/history-trend.js';
import { senSlope } from '../dist/core/history/trend-interval.js';
import { lineWithNoise, seeded } from '../test/core/history/trend-simulation.mjs';

const arg = process.argv.indexOf('--series');
const SERIES = arg > 0 ? Number(process.argv[arg + 1]) : 1000;

const line = lineWithNoise;
const points = (ys) => ys.map((y, i) => ({ atMs: i * 3_600_000, durationMs: y, passed: true }));
const pct = (k) => `${((100 * k) / SERIES).toFixed(1)}%`;

console.log(`Sen's 95% interval: coverage of the true slope (${SERIES} series a case)`);
for (const [n, slope, sd] of [
  [10, 20, 100],
  [20, 20, 100],
  [40, 5, 200],
  [100, 1, 50],
  [200, 0, 30],
]) {
  const rand = seeded(n * 7 + slope);
  let hits = 0;
  for (let k = 0; k < SERIES; k += 1) {
    const s = senSlope([...Array(n).keys()], line(rand, n, 1000, slope, sd));
    if (s.low !== null && s.high !== null && s.low <= slope && slope <= s.high) hits += 1;
  }
  console.log(`  n=${n} slope=${slope} sd=${sd}: ${pct(hits)}`);
}
console.log('Flat noisy series: a crossing claimed (5 s limit, 2 s level)');
for (const [n, sd] of [
  [10, 300],
  [30, 300],
  [60, 800],
]) {
  const rand = seeded(n + sd);
  let claimed = 0;
  for (let k = 0; k < SERIES; k += 1)
    if (computeDurationTrend(points(line(rand, n, 2000, 0, sd)), 5000).perRun.projection.kind === 'crossing')
      claimed += 1;
  console.log(`  n=${n} sd=${sd}: ${pct(claimed)}`);
}
console.log('A steady slowdown, the limit 10 runs ahead: projected, and the range holding the true crossing');
for (const [n, slope, sd] of [
  [12, 100, 100],
  [20, 50, 200],
  [40, 20, 200],
  [60, 20, 400],
]) {
  const rand = seeded(n * slope);
  const limit = 1000 + slope * (n - 1) + slope * 10;
  let projected = 0;
  let held = 0;
  for (let k = 0; k < SERIES; k += 1) {
    const range = unitsToLimitRange(computeDurationTrend(points(line(rand, n, 1000, slope, sd)), limit).perRun);
    if (range === null) continue;
    projected += 1;
    if (range[0] <= 10 && 10 <= range[1]) held += 1;
  }
  console.log(
    `  n=${n} slope=${slope} sd=${sd}: projected ${pct(projected)}, range holds ${projected === 0 ? '-' : `${((100 * held) / projected).toFixed(1)}%`} of those`,
  );
}
