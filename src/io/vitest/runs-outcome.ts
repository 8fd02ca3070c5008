/**
 * A Vitest job's outcome as the gate reads it: each test's tries (with the slowdown each got,
 * measured from the stop windows and the worker's schedstat), module and unhandled errors. Also
 * builds one from the tries alone when the job was cut short (a hung try in a threads pool took
 * Vitest with it, or the gate's deadline came) and Vitest wrote no result.
 */
import path from 'node:path';
import { FlakeguardError } from '../../core/errors.js';
import type { RunnerLine, TryRecord } from '../../core/gate/runner-protocol.js';
import { type StopInterval, stoppedWithin, trySlowdown } from '../../core/gate/slowdown.js';
import type { MeasuredTry, RunOptions, RunsOutcome, TestTries } from './runs-types.js';
import type { JobSpec, JobTest, VitestJobResult } from './vitest-job.js';

const toPosix = (p: string): string => p.split(path.sep).join('/');

function measure(t: TryRecord, stops: readonly StopInterval[], around: number | null): MeasuredTry {
  const start = t.startedAt ?? 0;
  const stoppedMs = stoppedWithin(stops, start, start + t.durationMs);
  return {
    ...t,
    slowdown: trySlowdown({
      wallMs: t.durationMs,
      stoppedMs,
      cpuNs: t.schedCpuNs ?? null,
      waitNs: t.schedWaitNs ?? null,
      around,
    }),
  };
}

export interface CallFigures {
  readonly wallMs: number;
  readonly stops: readonly StopInterval[];
  readonly ambient: number | null;
  readonly cutShort: RunsOutcome['cutShort'];
}

export function toOutcome(
  result: VitestJobResult,
  options: RunOptions,
  tests: readonly JobTest[],
  lines: readonly RunnerLine[],
  call: CallFigures,
): RunsOutcome {
  if (!result.ok && result.reason === 'custom-runner') {
    throw new FlakeguardError(
      'VITEST',
      `the Vitest config sets test.runner (${result.runner}); flakeguard times each try through its own runner and cannot combine the two. Run the gate with a config without a custom runner (--config <file>) or see docs/gate.md "Limitations".`,
    );
  }
  if (!result.ok) {
    throw new FlakeguardError(
      'USAGE',
      `--project "${result.project}" is not a project of this Vitest config; its projects: ${result.known.map((k) => `"${k}"`).join(', ') || 'none'}`,
    );
  }
  const rel = (f: string): string => toPosix(path.relative(options.root, f));
  const out = tests.map((t, i): TestTries => {
    const project = result.specProjects[t.spec] ?? '';
    const tries = lines.flatMap((l) =>
      l.kind === 'try' && l.file === t.file && l.fullName === t.fullName && l.project === project
        ? [measure(l.try, call.stops, call.ambient ?? options.slowdown?.ambient ?? null)]
        : [],
    );
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
    wallMs: call.wallMs,
    ambient: call.ambient,
    cutShort: call.cutShort,
  };
}

/** The result Vitest would have written, from the specs and the tries that came back. */
export function partialResult(specs: readonly JobSpec[], lines: readonly RunnerLine[]): VitestJobResult {
  const projectOf = (s: JobSpec): string =>
    s.project ?? lines.find((l) => l.kind !== 'start' && l.file === s.file)?.project ?? '';
  return {
    ok: true,
    vitestVersion: 'unknown (cut short)',
    specProjects: specs.map(projectOf),
    waves: [],
    moduleErrors: [],
    unhandledErrors: [],
  };
}
