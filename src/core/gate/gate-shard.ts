/**
 * Splitting the gate across CI jobs and joining their results. `--shard i/n` takes every n-th
 * selected test in a fixed order (file, then full name), so each test runs in exactly one job;
 * `--merge` checks that the reports are the n shards of one gate and combines them into one verdict.
 */
import { FlakeguardError } from '../errors.js';
import { blocks, GATE_VERDICTS, type GateLoad, type GateReport } from './gate-report.js';
import type { GateVerdict } from './gate-verdict.js';

export interface GateShard {
  readonly index: number;
  readonly count: number;
}

export function parseGateShard(text: string): GateShard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count || count > 1000) {
    throw new FlakeguardError(
      'USAGE',
      `--shard "${text}" is not a shard; write <index>/<count> with 1 <= index <= count <= 1000, e.g. --shard 2/3`,
    );
  }
  return { index, count };
}

/** The tests of shard `index` of `count`: every count-th test in (file, name) order, from index-1. */
export function pickGateShard<T>(
  tests: readonly T[],
  keyOf: (t: T) => readonly [string, string],
  shard: GateShard,
): T[] {
  const order = tests
    .map((t, position) => ({ t, key: keyOf(t), position }))
    .sort((a, b) => compare(a.key[0], b.key[0]) || compare(a.key[1], b.key[1]) || a.position - b.position);
  return order.filter((_, i) => i % shard.count === shard.index - 1).map((o) => o.t);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function mean(values: readonly (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length === 0 ? null : known.reduce((s, v) => s + v, 0) / known.length;
}

function mergeLoads(loads: readonly GateLoad[]): GateLoad {
  const first = loads[0];
  if (!first)
    return {
      workers: 0,
      pids: [],
      cpus: 0,
      loadavgBefore: null,
      loadavgAfter: null,
      workersMachineShare: null,
      testsCpuShare: null,
    };
  return {
    workers: Math.max(...loads.map((l) => l.workers)),
    pids: loads.flatMap((l) => l.pids),
    cpus: first.cpus,
    loadavgBefore: first.loadavgBefore,
    loadavgAfter: loads[loads.length - 1]?.loadavgAfter ?? null,
    workersMachineShare: mean(loads.map((l) => l.workersMachineShare)),
    testsCpuShare: mean(loads.map((l) => l.testsCpuShare)),
  };
}

/** One report from the reports of every shard of one gate run; `names[i]` names reports[i] in errors. */
/**
 * Checks that the reports are the shards of one gate run, each once and none missing; throws
 * naming the report that is not. Returns the first report and the shard count.
 */
function checkShardReports(
  reports: readonly GateReport[],
  names: readonly string[],
): { readonly first: GateReport; readonly count: number } {
  const first = reports[0];
  if (!first)
    throw new FlakeguardError(
      'USAGE',
      '--merge needs the --json report of every shard: flakeguard gate --merge shard-1.json shard-2.json ...',
    );
  const count = first.shard?.count ?? 1;
  const seen = new Map<number, string>();
  reports.forEach((r, i) => {
    const name = names[i] ?? `report ${i + 1}`;
    if (!r.shard)
      throw new FlakeguardError(
        'USAGE',
        `${name} is not a shard report (no "shard"); run each job with --shard <i>/<n> --json`,
      );
    if (r.shard.count !== count)
      throw new FlakeguardError(
        'USAGE',
        `${name} is shard ${r.shard.index}/${r.shard.count}, but ${names[0]} has ${count} shards; merge the reports of one gate run`,
      );
    if (r.base !== first.base)
      throw new FlakeguardError(
        'USAGE',
        `${name} compared against base ${r.base.slice(0, 10)}, ${names[0]} against ${first.base.slice(0, 10)}; merge the reports of one gate run`,
      );
    if (r.tries !== first.tries)
      throw new FlakeguardError(
        'USAGE',
        `${name} tried each test ${r.tries} times, ${names[0]} ${first.tries}; run every shard with the same --tries`,
      );
    const other = seen.get(r.shard.index);
    if (other !== undefined)
      throw new FlakeguardError(
        'USAGE',
        `${name} and ${other} are both shard ${r.shard.index}/${count}; pass each shard's report once`,
      );
    seen.set(r.shard.index, name);
  });
  checkNoneMissing(seen, count);
  return { first, count };
}

function checkNoneMissing(seen: ReadonlyMap<number, string>, count: number): void {
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length > 0) {
    throw new FlakeguardError(
      'USAGE',
      `missing shard report${missing.length === 1 ? '' : 's'} ${missing.map((i) => `${i}/${count}`).join(', ')}; a merged verdict needs every shard (did a job fail before writing its --json?)`,
    );
  }
}

export function mergeGateReports(reports: readonly GateReport[], names: readonly string[]): GateReport {
  const { first, count } = checkShardReports(reports, names);
  const tests = reports
    .flatMap((r) => r.tests)
    .sort((a, b) => compare(a.file, b.file) || compare(a.fullName, b.fullName));
  const counts = Object.fromEntries(GATE_VERDICTS.map((v) => [v, 0])) as Record<GateVerdict, number>;
  for (const t of tests) counts[t.verdict] += 1;
  const unique = (items: readonly string[]): string[] => [...new Set(items)];
  return {
    ...first,
    verdict: tests.some((t) => blocks(t.verdict, first.fragile)) ? 'fail' : 'pass',
    shard: null,
    mergedShards: count,
    load: mergeLoads(reports.map((r) => r.load)),
    tests,
    counts,
    proposals: reports.flatMap((r) => r.proposals),
    notices: unique(reports.flatMap((r) => r.notices)),
    wallMs: Math.max(...reports.map((r) => r.wallMs)),
    // One seed when every shard ran with it (gate --seed), else none: each try keeps its own.
    seed: new Set(reports.map((r) => r.seed)).size === 1 ? first.seed : null,
  };
}
