/**
 * A Vitest job's outcome as the gate reads it: each test's tries (with the factor each got,
 * measured from its worker's tree by the pacer), the factor the call's tries got, module and unhandled errors. Also
 * builds one from the tries alone when the job was cut short (a hung try in a threads pool took
 * Vitest with it, or the gate's deadline came) and Vitest wrote no result.
 */
import path from 'node:path';
import { FlakeguardError } from '../../core/errors.js';
import { blockedOf, measuredSpan, phaseFactor, tryFactor, tryFigures } from '../../core/gate/pacer.js';
import { coldCostMs, type GateTry, type RunnerLine } from '../../core/gate/runner-protocol.js';
import { specKey } from '../../core/tuple-key.js';
import type { Pacer } from '../load/pacer.js';
import type { TestTries, TriesOutcome, TryOptions } from './tries-types.js';
import type { JobSpec, JobTest, VitestJobResult } from './vitest-job.js';

const toPosix = (p: string): string => p.split(path.sep).join('/');

/**
 * A try with the factor its own tree got over its test function (core/gate/pacer.ts measuredSpan,
 * tryFigures, tryFactor), the time it was blocked over that span (blockedOf), and the CPU its tree used over the whole try from the pacer's samples.
 */
function measure(t: GateTry, pacer: Pacer): GateTry {
  const tid = t.tid ?? t.pid ?? 0;
  const start = t.startedAt ?? 0;
  const whole = pacer.window(tid, start, start + t.durationMs);
  const span = measuredSpan(t);
  const figures = tryFigures(t.body, pacer.window(tid, span.from, span.to));
  const got = tryFactor(figures);
  const blocked = blockedOf(figures);
  return {
    ...t,
    ...(whole !== null && whole.cpuMs > 0 ? { cpuMs: whole.cpuMs } : {}),
    slowdown: got.factor,
    ...(blocked === null ? {} : { blockedMs: blocked }),
    ...(got.note === null ? {} : { slowdownNote: got.note }),
  };
}

export interface CallFigures {
  readonly wallMs: number;
  readonly pacer: Pacer;
  /** The factor asked for. */
  readonly asked: number;
  readonly cutShort: TriesOutcome['cutShort'];
}

/** A config with a custom `test.runner`: the gate times each try through its own runner. */
export function customRunnerError(runner: string): FlakeguardError {
  return new FlakeguardError(
    'VITEST',
    `the Vitest config sets test.runner (${runner}); flakeguard times each try through its own runner and cannot combine the two. Run the gate with a config without a custom runner (--config <file>) or see docs/gate.md "Limitations".`,
  );
}

/** Why Vitest could not run the job: a custom runner in the config, or an unknown --project. */
function jobError(result: Extract<VitestJobResult, { ok: false }>): FlakeguardError {
  if (result.reason === 'custom-runner') return customRunnerError(result.runner);
  return new FlakeguardError(
    'USAGE',
    `--project "${result.project}" is not a project of this Vitest config; its projects: ${result.known.map((k) => `"${k}"`).join(', ') || 'none'}`,
  );
}

export function toOutcome(
  result: VitestJobResult,
  options: TryOptions,
  tests: readonly JobTest[],
  lines: readonly RunnerLine[],
  call: CallFigures,
): TriesOutcome {
  if (!result.ok) throw jobError(result);
  const rel = (f: string): string => toPosix(path.relative(options.root, f));
  const out = tests.map((t, i): TestTries => {
    const project = result.specProjects[t.spec] ?? '';
    const tries = onePerStart(
      lines.flatMap((l) =>
        l.kind === 'try' && l.file === t.file && l.fullName === t.fullName && l.project === project ? [l.try] : [],
      ),
    ).map((x) => measure(x, call.pacer));
    const target = options.tests[i];
    return {
      file: target?.file ?? rel(t.file),
      project,
      fullName: t.fullName,
      found: tries.length > 0,
      tries,
      errors: tries.flatMap((x) => (x.error === undefined ? [] : [x.error])),
    };
  });
  return {
    vitestVersion: result.vitestVersion,
    tests: out,
    moduleErrors: result.moduleErrors.map((m) => ({ file: rel(m.file), project: m.project, message: m.message })),
    unhandledErrors: result.unhandledErrors,
    waves: result.waves,
    fileCosts: fileCostsOf(lines, rel),
    busyMs: lines.reduce((s, l) => s + (l.kind === 'file' ? l.costMs : 0), 0),
    wallMs: call.wallMs,
    pace: {
      method: call.pacer.method,
      asked: call.asked,
      factor: phaseFactor(out.flatMap((t) => t.tries)),
    },
    cutShort: call.cutShort,
  };
}

/**
 * One try per start (its worker and start time): a try the watchdog wrote as hung and the Vitest
 * child then wrote as unfinished (its worker ended) is one try, the first written.
 */
function onePerStart(tries: readonly GateTry[]): GateTry[] {
  const seen = new Set<string>();
  return tries.filter((x) => {
    if (x.pid === undefined || x.startedAt === undefined) return true;
    const k = `${x.pid} ${x.startedAt}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** The slowest try of each file (in each project) in the call: worker start to the file's end. */
function fileCostsOf(lines: readonly RunnerLine[], rel: (f: string) => string): TriesOutcome['fileCosts'] {
  const costs = new Map<string, { file: string; project: string; costMs: number }>();
  for (const l of lines) {
    if (l.kind !== 'file') continue;
    const key = specKey(l.file, l.project);
    const was = costs.get(key);
    if (was === undefined || coldCostMs(l) > was.costMs)
      costs.set(key, { file: rel(l.file), project: l.project, costMs: coldCostMs(l) });
  }
  return [...costs.values()];
}

/** The result Vitest would have written, from the specs and the tries that came back. */
export function partialResult(specs: readonly JobSpec[], lines: readonly RunnerLine[]): VitestJobResult {
  const projectOf = (s: JobSpec): string =>
    s.project ??
    lines.flatMap((l) => ((l.kind === 'try' || l.kind === 'file') && l.file === s.file ? [l.project] : []))[0] ??
    '';
  return {
    ok: true,
    vitestVersion: 'unknown (cut short)',
    specProjects: specs.map(projectOf),
    waves: [],
    moduleErrors: [],
    unhandledErrors: [],
  };
}
