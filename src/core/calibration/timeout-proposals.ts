/**
 * `flakeguard history --propose-timeouts`: per CI platform, a multiplier of the time limits that
 * hold here (the upper end of the platform's 95% interval, rounded up to 0.1: CI at the slowest
 * speed the runs still allow), as config text to review: flakeguard.yaml budgets per platform and
 * Vitest's testTimeout. Never applied: the command prints, a person copies. Pure.
 */
import { serializeDuration } from '../duration.js';
import { describeRatio } from './calibration-phrases.js';
import type { CiSpeedEstimate } from './ci-speed.js';
import type { CiPlatformSpeed } from './ci-speed-report.js';

/** The CI runner OS labels Node names differently (process.platform). */
const NODE_PLATFORM: Readonly<Record<string, string>> = { linux: 'linux', windows: 'win32', macos: 'darwin' };

export interface TimeoutProposal {
  readonly label: string;
  /** process.platform the label maps to, or null (a job name). */
  readonly platform: string | null;
  readonly multiplier: number;
  readonly budgetMs: number;
  readonly testTimeoutMs: number;
  readonly estimate: CiSpeedEstimate;
}

/** Vitest's testTimeout when a project sets none. */
const VITEST_DEFAULT_TIMEOUT_MS = 5000;

/**
 * A limit x multiplier, rounded up to a tenth of a second. The multiplier is a whole number of
 * tenths, and the product is taken in tenths: ms x 8.3 in floating point is 249000.00000000003 for
 * 30 s, which rounded up would propose 249.1 s for "30s x 8.3".
 */
const scaled = (ms: number, m: number): number => Math.ceil((ms * Math.round(m * 10)) / 1000) * 100;

export function proposeTimeouts(platforms: readonly CiPlatformSpeed[], budgetHereMs: number): TimeoutProposal[] {
  return platforms.flatMap(({ speed }) => {
    if (speed.kind !== 'estimated') return [];
    const multiplier = Math.max(1, Math.ceil(speed.interval[1] * 10 - 1e-9) / 10);
    return [
      {
        label: speed.platform,
        platform: NODE_PLATFORM[speed.platform] ?? null,
        multiplier,
        budgetMs: scaled(budgetHereMs, multiplier),
        testTimeoutMs: scaled(VITEST_DEFAULT_TIMEOUT_MS, multiplier),
        estimate: speed,
      },
    ];
  });
}

const x = (n: number): string => n.toFixed(1);

/** The proposals as commented config text, or a line saying why there are none. */
export function formatTimeoutProposals(
  proposals: readonly TimeoutProposal[],
  budgetHereMs: number,
  here: string,
): string {
  if (proposals.length === 0)
    return '# no timeout proposals: no CI platform has a speed estimate (flakeguard history lists why)\n';
  const head = [
    '# Proposed by flakeguard history --propose-timeouts: nothing was changed; review, then copy what you want.',
    `# The multiplier is the upper end of each CI platform's 95% interval of its speed relative to this machine (${here}, budget.test ${serializeDuration(budgetHereMs)}).`,
    ...proposals.map(
      (p) =>
        `#   ${p.label}: ${describeRatio(p.estimate.ratio)} (95% CI ${x(p.estimate.interval[0])}-${x(p.estimate.interval[1])}, ${p.estimate.tests} tests, last ${p.estimate.runs} run${p.estimate.runs === 1 ? '' : 's'}): x${p.multiplier}`,
    ),
  ];
  const mapped = proposals.filter((p) => p.platform !== null);
  const yaml = [
    '# flakeguard.yaml (a platform key applies wherever that OS runs the suite, here too when it is the same OS)',
    'budget:',
    '  test:',
    `    default: ${serializeDuration(budgetHereMs)}`,
    ...mapped.map(
      (p) =>
        `    ${p.platform}: ${serializeDuration(p.budgetMs)}   # CI ${p.label}: ${serializeDuration(budgetHereMs)} x ${p.multiplier}`,
    ),
  ];
  const timeouts = mapped.map((p) => `${p.platform}: ${p.testTimeoutMs}`).join(', ');
  const vitest = [
    `// vitest.config.ts: Vitest's testTimeout in CI per platform (its default ${VITEST_DEFAULT_TIMEOUT_MS} ms x the same multipliers)`,
    "// import { env, platform } from 'node:process';",
    `testTimeout: env.CI ? (({ ${timeouts} }) as Record<string, number>)[platform] ?? ${VITEST_DEFAULT_TIMEOUT_MS} : ${VITEST_DEFAULT_TIMEOUT_MS},`,
  ];
  const jobs = proposals
    .filter((p) => p.platform === null)
    .map(
      (p) =>
        `# CI job ${p.label}: x${p.multiplier} (budget ${serializeDuration(p.budgetMs)}, testTimeout ${p.testTimeoutMs} ms); set it in that job's config or environment`,
    );
  return `${[...head, '', ...(mapped.length > 0 ? [...yaml, '', ...vitest] : []), ...jobs].join('\n')}\n`;
}
