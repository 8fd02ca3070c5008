/**
 * The gate's slowdown: duty-cycles a process group with SIGSTOP/SIGCONT on a short period (as
 * cpulimit does: no privileges, child processes included) with a controller that measures and
 * corrects (core/gate/slowdown.ts): every cycle's real run and stop windows are timed and the error
 * is paid back in the next ones, and the group's own run-queue wait (/proc schedstat: the machine's
 * load and the group's parallel tries waiting on each other) is measured every half second, so
 * only the slowdown the machine does not already give is added; and the slowdown its busiest
 * CPU-bound process really got (wall / cpu) corrects a gain, since on a crowded run queue stops
 * and waiting overlap. The group's leader (the guard,
 * io/process/guard-source.ts) is let run at once, so it can still kill the group if flakeguard
 * dies during a stop; stop() always leaves the group running.
 */
import {
  ambientFactor,
  correctGain,
  type DutyAccount,
  dutyFactorFor,
  EMPTY_DUTY_ACCOUNT,
  planCycle,
  recordCycle,
  type StopInterval,
  type TaskWindow,
  windowSlowdown,
} from '../../core/gate/slowdown.js';
import { readGroupSchedstat, type SchedSample } from './schedstat.js';

export interface DutyCycleOptions {
  readonly pgid: number;
  /** The slowdown to reach, ambient included. */
  readonly target: number;
  /** The ambient slowdown measured before (null: unknown, taken as 1 until measured). */
  readonly ambient: number | null;
  readonly periodMs?: number;
  readonly measureEveryMs?: number;
}

export interface DutySummary {
  readonly stops: readonly StopInterval[];
  readonly wallMs: number;
  readonly stoppedMs: number;
  /** The group's last measured ambient slowdown (null without /proc). */
  readonly ambient: number | null;
}

export interface DutyCycle {
  /** Stop windows so far, on the clock `now()` reads. */
  readonly stops: readonly StopInterval[];
  stop(): DutySummary;
}

/** Milliseconds since the epoch with sub-ms resolution; the test workers read the same clock. */
export const now = (): number => performance.timeOrigin + performance.now();

const live = new Set<number>();
let exitHook = false;

function signal(pid: number, name: NodeJS.Signals): boolean {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false;
  }
}

export function startDutyCycle(options: DutyCycleOptions): DutyCycle {
  const { pgid } = options;
  const periodMs = options.periodMs ?? 20;
  const measureEveryMs = options.measureEveryMs ?? 250;
  if (!exitHook) {
    exitHook = true;
    process.on('exit', () => {
      for (const g of live) signal(-g, 'SIGCONT');
    });
  }
  live.add(pgid);
  const stops: StopInterval[] = [];
  const started = now();
  let account: DutyAccount = EMPTY_DUTY_ACCOUNT;
  let ambient = options.ambient;
  let gain = 1;
  let duty = dutyFactorFor(options.target, ambient ?? 1);
  let sample: Map<number, SchedSample> | null = readGroupSchedstat(pgid);
  let lastMeasure = started;
  let measuredAccount = account;
  let timer: NodeJS.Timeout | null = null;
  let stoppedAt: number | null = null;
  let runFrom = started;
  let planned = planCycle(account, duty, periodMs);
  let ended = false;

  const measure = (): void => {
    const next = readGroupSchedstat(pgid);
    if (next !== null && sample !== null) {
      const before = sample;
      const tasks: TaskWindow[] = [...next].flatMap(([pid, s]) => {
        const b = before.get(pid);
        return b ? [{ cpuNs: s.cpuNs - b.cpuNs, waitNs: s.waitNs - b.waitNs }] : [];
      });
      const sum = tasks.reduce((a, t) => ({ cpuNs: a.cpuNs + t.cpuNs, waitNs: a.waitNs + t.waitNs }), {
        cpuNs: 0,
        waitNs: 0,
      });
      const seen = ambientFactor(sum.cpuNs, sum.waitNs, 20e6);
      if (seen !== null) ambient = ambient === null ? seen : ambient * 0.5 + seen * 0.5;
      const got = windowSlowdown(
        tasks,
        account.wallMs - measuredAccount.wallMs,
        account.stoppedMs - measuredAccount.stoppedMs,
      );
      gain = correctGain(gain, options.target, got);
      duty = Math.max(1, dutyFactorFor(options.target, ambient ?? 1) * gain);
    }
    measuredAccount = account;
    sample = next;
  };

  const resume = (): void => {
    const at = now();
    if (stoppedAt !== null) {
      signal(-pgid, 'SIGCONT');
      stops.push({ from: stoppedAt, to: at });
      account = recordCycle(account, duty, { runMs: stoppedAt - runFrom, stopMs: at - stoppedAt });
      stoppedAt = null;
    } else {
      account = recordCycle(account, duty, { runMs: at - runFrom, stopMs: 0 });
    }
    runFrom = at;
    if (ended) return;
    if (at - lastMeasure >= measureEveryMs) {
      lastMeasure = at;
      measure();
    }
    planned = planCycle(account, duty, periodMs);
    timer = setTimeout(pause, planned.runMs);
  };

  const pause = (): void => {
    if (ended) return;
    if (planned.stopMs < 0.5) {
      resume();
      return;
    }
    if (!signal(-pgid, 'SIGSTOP')) {
      ended = true;
      return;
    }
    signal(pgid, 'SIGCONT');
    stoppedAt = now();
    timer = setTimeout(resume, planned.stopMs);
  };

  timer = setTimeout(pause, planned.runMs);
  return {
    stops,
    stop: () => {
      if (!ended) {
        ended = true;
        if (timer) clearTimeout(timer);
        resume();
      }
      signal(-pgid, 'SIGCONT');
      live.delete(pgid);
      return {
        stops,
        wallMs: now() - started,
        stoppedMs: account.stoppedMs,
        ambient: ambient === null ? null : Math.round(ambient * 100) / 100,
      };
    },
  };
}
