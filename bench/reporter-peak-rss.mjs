// Preloaded into the Vitest main process by the benchmark: writes its peak RSS (KiB) and its own
// CPU time (user + system, microseconds) at exit, as JSON.
import { writeFileSync } from 'node:fs';

const target = process.env.FLAKEGUARD_BENCH_RSS_FILE;
if (target) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(target, JSON.stringify({ maxRssKiB: usage.maxRSS, cpuUs: usage.userCPUTime + usage.systemCPUTime }));
  });
}
