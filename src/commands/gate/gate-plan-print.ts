/**
 * `flakeguard gate --plan`: the selection (this shard's part with --shard), each selected test's
 * limit and the settings the tries would run with, printed as JSON (core/gate/gate-plan.ts); no
 * test runs, no load starts. Exit 0: a plan is not a verdict.
 */
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { Config } from '../../core/config.js';
import { formatBudget } from '../../core/gate/check-plan.js';
import { computeGatePlan, type GatePlan, toGatePlanJson } from '../../core/gate/gate-plan.js';
import { systemClock } from '../../io/clock.js';
import type { HistoryTarget } from '../../io/history/history-store.js';
import type { GateArgs } from './gate-args.js';
import { resolveGateSlowdown } from './gate-calibration.js';
import { prepareLimits } from './gate-limits.js';
import { notRunRows } from './gate-report-input.js';
import type { GateSelection } from './gate-select.js';

export interface GatePlanSources {
  readonly parsed: GateArgs;
  readonly root: string;
  readonly config: Config;
  readonly base: { readonly sha: string; readonly ref: string };
  readonly selection: GateSelection;
  readonly step: (text: string) => void;
  /** The history store (null: off), for --slowdown auto. */
  readonly history: HistoryTarget | null;
}

export async function printGatePlan(s: GatePlanSources): Promise<number> {
  const plan = await planGate(s);
  const m = plan.mustHave;
  s.step(
    `plan: must-have checks at their most: ${m.referenceTries} reference tries, ${m.triesWithoutSlowdownAtMost} without slowdown, ${m.aloneTriesAtMost} alone: about ${formatBudget(m.estimateMs)} at ${m.assumption}; time budget ${formatBudget(m.timeBudgetMs)}`,
  );
  process.stdout.write(`${JSON.stringify(toGatePlanJson(plan), null, 2)}\n`);
  return 0;
}

async function planGate({ parsed, root, config, base, selection, step, history }: GatePlanSources): Promise<GatePlan> {
  const platform = process.platform;
  const tests = selection.selected.map((s) => s.test);
  const limits = await prepareLimits({ root, config, platform, tests, today: systemClock.today() });
  for (const w of limits.warnings) step(`warning: ${w}`);
  const asked = { slowdown: parsed.slowdown ?? config.gate.slowdown, platform: parsed.platform };
  const slowdown = await resolveGateSlowdown({ ...asked, history, here: platform }, step);
  return computeGatePlan({
    base: base.sha,
    baseRef: base.ref,
    vitestConfig:
      selection.configFile === null ? null : path.relative(root, selection.configFile).split(path.sep).join('/'),
    shard: parsed.shard,
    platform,
    limits: {
      tries: parsed.tries,
      maxTries: parsed.maxTries,
      timeBudgetMs: parsed.timeBudgetMs,
      slowdown: slowdown.target,
      ...(slowdown.calibration === null ? {} : { calibration: slowdown.calibration }),
      loadWorkers: parsed.workers,
      warnAt: config.budget.warnAt,
    },
    cpus: availableParallelism(),
    timeBudgetGiven: parsed.timeBudgetGiven,
    selected: selection.selected,
    projectsOf: selection.projectsOf,
    affectedBy: selection.affectedBy,
    limitFor: limits.limitFor,
    notRun: notRunRows(selection),
    unchanged: selection.unchanged,
    changedFiles: selection.changedFiles,
    notices: [...selection.notices, ...limits.notices],
  });
}
