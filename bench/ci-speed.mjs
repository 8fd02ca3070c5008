// The CI speed estimate measured on simulated series (npm run build first):
//   node bench/ci-speed.mjs [--series 2000]
// Per case, seeded series of tests run here and in CI at a known ratio with log-normal noise: how
// often the 95% interval covers the true ratio, and the median width of the interval.
import { estimateCiSpeed } from '../dist/core/calibration/ci-speed.js';
import { seeded, simulateRuns } from '../test/core/calibration/ci-speed-simulation.mjs';

const arg = process.argv.indexOf('--series');
const SERIES = arg > 0 ? Number(process.argv[arg + 1]) : 2000;

console.log(`95% interval for the CI/here ratio: coverage of the true ratio (${SERIES} series a case)`);
for (const [tests, ratio, localRuns, ciRuns, sd] of [
  [20, 3, 1, 1, 0.2],
  [20, 3, 3, 10, 0.5],
  [50, 1.5, 5, 30, 0.3],
  [200, 3.4, 10, 30, 0.4],
  [500, 0.8, 2, 5, 0.6],
]) {
  const rand = seeded(tests * 31 + localRuns);
  let hits = 0;
  const widths = [];
  for (let k = 0; k < SERIES; k += 1) {
    const e = estimateCiSpeed('linux', ...Object.values(simulateRuns(rand, { tests, ratio, localRuns, ciRuns, sd })));
    if (e.kind !== 'estimated') continue;
    if (e.interval[0] <= ratio && ratio <= e.interval[1]) hits += 1;
    widths.push(e.interval[1] / e.interval[0]);
  }
  widths.sort((a, b) => a - b);
  const width = widths[widths.length >> 1] ?? Number.NaN;
  console.log(
    `  tests=${tests} ratio=${ratio} runs here=${localRuns} CI runs=${ciRuns} noise sd=${sd}: ${((100 * hits) / SERIES).toFixed(1)}% (median interval high/low ${width.toFixed(3)})`,
  );
}
