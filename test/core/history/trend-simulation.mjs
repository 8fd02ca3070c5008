/** Seeded series for the trend tests and bench/trend-interval.mjs: a straight line plus Gaussian noise, the same on every run. */

/** mulberry32: a small seeded PRNG (uniform in [0, 1)). */
export function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Box-Muller: a standard normal draw from two uniform ones. */
export function gaussian(rand) {
  const u = 1 - rand();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

/** y_i = base + slope * i + noise (sd), i = 0..n-1. */
export function lineWithNoise(rand, n, base, slope, sd) {
  return Array.from({ length: n }, (_, i) => base + slope * i + sd * gaussian(rand));
}
