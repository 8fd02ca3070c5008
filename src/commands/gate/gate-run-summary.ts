/**
 * What the gate's tries add up to beside the verdicts: the load figures (the workers' and the
 * tests' share of the CPU), the slowdown the tries got, and the notices for the report.
 */
import type { GateLoad } from '../../core/gate/gate-report.js';
import type { GateTestInput } from '../../core/gate/gate-report-test.js';
import { describeLoadShortfall } from '../../core/gate/load-check.js';
import type { GateTry } from '../../core/gate/runner-protocol.js';
import { defaultWorkerCount, type LoadSummary } from '../../io/load/load-workers.js';

export interface TryTimes {
  /** Sum of the loaded tries' CPU time. */
  readonly cpuMs: number;
  /** Sum of the loaded tries' own durations. */
  readonly triesMs: number;
}

export function sumTryTimes(triesOfEach: Iterable<readonly GateTry[]>): TryTimes {
  let cpuMs = 0;
  let triesMs = 0;
  for (const tries of triesOfEach) {
    for (const x of tries) {
      cpuMs += x.cpuMs ?? 0;
      triesMs += x.durationMs;
    }
  }
  return { cpuMs, triesMs };
}

export function summarizeGateLoad(workers: number, summary: LoadSummary | null, times: TryTimes): GateLoad {
  return {
    workers,
    pids: summary?.pids ?? [],
    cpus: summary?.cpus ?? defaultWorkerCount(),
    loadavgBefore: summary?.loadavgBefore ?? null,
    loadavgAfter: summary?.loadavgAfter ?? null,
    workersMachineShare: summary?.machineShare ?? null,
    testsCpuShare: times.triesMs > 0 ? Math.round((times.cpuMs / times.triesMs) * 1000) / 1000 : null,
  };
}

export interface NoticeFacts {
  /** Where the gate reached its deadline: in the must-have checks, in the nice-to-have ones, or not at all. */
  readonly cut: 'must-have' | 'nice-to-have' | null;
  /** The verdicts: an inconclusive one names its missing checks and the budget that allows them. */
  readonly tests: readonly GateTestInput[];
  readonly unhandledErrors: readonly string[];
  readonly load: GateLoad;
  /** The reference tries' measured factor against the target, when they differ (core/gate/slowdown.ts describeShortfall). */
  readonly slowdownShortfall: string | null;
}

export function gatherRunNotices(facts: NoticeFacts): string[] {
  const notices: string[] = [];
  if (facts.cut === 'must-have') {
    const inconclusive = facts.tests.filter((t) => t.result.verdict === 'inconclusive');
    const allows = facts.tests.flatMap((t) => t.missing ?? []).find((m) => m.includes('--time-budget'));
    const command = allows?.match(/--time-budget \S+/)?.[0];
    notices.push(
      `the gate reached its deadline before every must-have check was made: ${inconclusive.length} test${inconclusive.length === 1 ? ' is' : 's are'} inconclusive (each names what is missing)${command ? `; run flakeguard gate ${command} to make them` : ''}`,
    );
  } else if (facts.cut === 'nice-to-have') {
    notices.push(
      'every must-have check was made; the gate reached its deadline in the nice-to-have ones (extra tries, where tests break): the tries still running were stopped, and the verdicts stand on the tries that finished',
    );
  }
  for (const e of facts.unhandledErrors) notices.push(`Vitest reported an unhandled error during the tries: ${e}`);
  const shortfall = describeLoadShortfall(facts.load);
  if (shortfall) notices.push(shortfall);
  if (facts.slowdownShortfall) notices.push(facts.slowdownShortfall);
  return notices;
}
