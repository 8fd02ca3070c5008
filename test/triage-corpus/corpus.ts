/**
 * The triage corpus: red runs built for real. Each case is a fixture project (its source is data
 * here) with a fault injected, the CI steps that run it, and the labels triage must find. A case is
 * built by running the steps like a CI job would (stop at the first failing step, one log with
 * stdout and stderr interleaved, the exit code of the failing step), then Vitest writes its JSON
 * report and JUnit XML, and the flakeguard reporter its run record when the case uses it.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import type { FindingClass } from '../../src/core/triage/triage-config.js';
import type { TriageJson } from '../../src/core/triage/triage-format.js';
import { listRunRecords } from '../../src/io/record/run-record-file.js';
import { DIST_AS_MODULES, type Fixture, REPO_ROOT, REPORTER_BUILT } from '../helpers/fixture.js';
import { countProcess } from '../helpers/process-budget.js';

export interface Label {
  readonly class: FindingClass;
  /** Expected file (relative to the root); undefined = any, null = a run-level finding. */
  readonly file?: string | null;
  readonly test?: string | null;
  readonly measured?: boolean;
  /** The signature or rule id that must have decided the class. */
  readonly rule?: string;
}

export interface CorpusCase {
  readonly id: string;
  /** What fault was injected. */
  readonly fault: string;
  readonly files: Record<string, string>;
  /** Shell commands run before Vitest, as CI steps; the first failing one ends the job. */
  readonly before?: readonly string[];
  /** Extra Vitest CLI arguments (`--retry=1`). */
  readonly vitestArgs?: readonly string[];
  /** Add the flakeguard reporter (run record) to the generated Vitest config. */
  readonly reporter?: boolean;
  /** Vitest config source to use instead of the generated one (a broken config). */
  readonly vitestConfig?: string;
  /** Cut the JSON report: keep the bytes before this marker's Nth occurrence plus `extra`. */
  readonly truncateReport?: { readonly after: string; readonly extra: number };
  readonly colors?: boolean;
  readonly git?: boolean;
  readonly triageArgs?: readonly string[];
  /** Inputs given to triage; all of them unless said otherwise. */
  readonly inputs?: readonly ('record' | 'report' | 'junit' | 'log' | 'exit')[];
  /** The project's folder inside the fixture (a workspace package); Vitest runs there and triage gets `--root <project>`. */
  readonly project?: string;
  /** The Vitest config's file name in the project (default vitest.config.ts). */
  readonly configFile?: string;
  /**
   * How the project's Vitest is installed: 'hoisted' (default: one node_modules at the fixture's
   * root, as a workspace hoists it) or 'pnpm' (the project's node_modules/vitest links into
   * node_modules/.pnpm, nothing at the root).
   */
  readonly layout?: 'hoisted' | 'pnpm';
  readonly labels: readonly Label[];
  /**
   * Labels when the installed Vitest is 5.x, for a case whose inputs say more there (JUnit with
   * the unhandled errors, FAIL lines naming the failed attempts). docs/triage.md lists each difference.
   */
  readonly labelsV5?: readonly Label[];
}

/** Major version of the Vitest the corpus runs (the repo's node_modules: 4.1.12, or 5.x in .ci/vitest5). */
export const VITEST_VERSION = (
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'node_modules/vitest/package.json'), 'utf8')) as { version: string }
).version;
export const VITEST_MAJOR = Number(VITEST_VERSION.split('.')[0]);

export function labelsFor(c: CorpusCase): readonly Label[] {
  return VITEST_MAJOR >= 5 && c.labelsV5 ? c.labelsV5 : c.labels;
}

export interface BuiltRun {
  readonly exitCode: number;
  readonly log: string;
  readonly report: string | null;
  readonly junit: string | null;
  readonly records: readonly string[];
}

function generatedConfig(c: CorpusCase): string {
  const reporters = ["'default'", "'json'", "'junit'", ...(c.reporter ? [JSON.stringify(REPORTER_BUILT)] : [])];
  return `import { defineConfig } from 'vitest/config';
export default defineConfig({ test: { include: ['test/**/*.test.ts'], reporters: [${reporters.join(', ')}], outputFile: { json: 'out/report.json', junit: 'out/junit.xml' }, maxWorkers: 1 } });
`;
}

function baseEnv(colors: boolean): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (
      v !== undefined &&
      !k.startsWith('VITEST') &&
      !['GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY', 'NODE_OPTIONS', 'FORCE_COLOR', 'NO_COLOR'].includes(k)
    )
      env[k] = v;
  }
  // npm/npx put node_modules/.bin on PATH; a CI shell step does not have it.
  const PATH = (env['PATH'] ?? '')
    .split(path.delimiter)
    .filter((p) => !p.includes('node_modules'))
    .join(path.delimiter);
  return { ...env, ...DIST_AS_MODULES, PATH, CI: 'true', ...(colors ? { FORCE_COLOR: '1' } : { NO_COLOR: '1' }) };
}

/** The case's files, with its Vitest config in the project folder. */
export function caseFiles(c: CorpusCase): Record<string, string> {
  const project = c.project ?? '.';
  return {
    ...c.files,
    [path.posix.join(project, c.configFile ?? 'vitest.config.ts')]: c.vitestConfig ?? generatedConfig(c),
  };
}

/** A pnpm install of the project's Vitest: node_modules/vitest links into node_modules/.pnpm; no node_modules at the fixture's root. */
function installPnpmLayout(fx: Fixture, project: string): void {
  unlinkSync(path.join(fx.root, 'node_modules'));
  const store = path.join(fx.root, project, 'node_modules/.pnpm/vitest@4.1.12/node_modules');
  mkdirSync(store, { recursive: true });
  symlinkSync(path.join(REPO_ROOT, 'node_modules/vitest'), path.join(store, 'vitest'), 'dir');
  symlinkSync('.pnpm/vitest@4.1.12/node_modules/vitest', path.join(fx.root, project, 'node_modules/vitest'), 'dir');
}

/** Runs the case's CI steps in the fixture and returns the paths of what the run left. */
export async function buildRun(c: CorpusCase, fx: Fixture): Promise<BuiltRun> {
  const env = baseEnv(c.colors === true);
  const cwd = path.join(fx.root, c.project ?? '.');
  if (c.layout === 'pnpm') installPnpmLayout(fx, c.project ?? '.');
  const logParts: string[] = [];
  let exitCode = 0;
  let vitestRan = false;
  for (const step of c.before ?? []) {
    logParts.push(`##[group]Run ${step}\n`);
    const r = await execa('sh', ['-c', step], {
      cwd,
      reject: false,
      all: true,
      env,
      extendEnv: false,
      stdin: 'ignore',
    });
    logParts.push(`${String(r.all ?? '')}\n`);
    if (r.exitCode !== 0) {
      exitCode = r.exitCode ?? 1;
      logParts.push(`##[error]Process completed with exit code ${exitCode}.\n`);
      break;
    }
  }
  if (exitCode === 0) {
    vitestRan = true;
    const vitest = path.join(REPO_ROOT, 'node_modules/vitest/vitest.mjs');
    logParts.push('##[group]Run npx vitest run\n');
    countProcess('vitest');
    const r = await execa(process.execPath, [vitest, 'run', ...(c.vitestArgs ?? [])], {
      cwd,
      reject: false,
      all: true,
      env,
      extendEnv: false,
      stdin: 'ignore',
    });
    logParts.push(`${String(r.all ?? '')}\n`);
    exitCode = r.exitCode ?? 1;
    if (exitCode !== 0) logParts.push(`##[error]Process completed with exit code ${exitCode}.\n`);
  }
  const log = path.join(cwd, 'out/ci.log');
  fx.write(path.relative(fx.root, log), logParts.join(''));
  const report = path.join(cwd, 'out/report.json');
  if (c.truncateReport && existsSync(report)) {
    const text = readFileSync(report);
    const at = text.indexOf(c.truncateReport.after);
    if (at === -1) throw new Error(`${c.id}: marker ${c.truncateReport.after} not in the report`);
    writeFileSync(report, text.subarray(0, at + c.truncateReport.extra));
  }
  const junit = path.join(cwd, 'out/junit.xml');
  return {
    exitCode,
    log,
    // A job uploads the report path it configured; when Vitest never started there is none.
    report: existsSync(report) || vitestRan ? report : null,
    junit: existsSync(junit) ? junit : null,
    records: listRunRecords(cwd, '.flakeguard/runs'),
  };
}

export function triageArgs(c: CorpusCase, run: BuiltRun): string[] {
  const want = new Set(c.inputs ?? ['record', 'report', 'junit', 'log', 'exit']);
  const args = ['triage', '--json', '--root', c.project ?? '.'];
  if (want.has('record')) for (const r of run.records) args.push('--record', r);
  if (want.has('report') && run.report) args.push('--report', run.report);
  if (want.has('junit') && run.junit) args.push('--junit', run.junit);
  if (want.has('log')) args.push('--log', run.log);
  if (want.has('exit')) args.push('--exit-code', String(run.exitCode));
  return [...args, ...(c.triageArgs ?? [])];
}

export type JsonFinding = TriageJson['findings'][number];

/** Matches labels to distinct findings; returns the labels left unmatched and the findings left over. */
export function scoreLabels(
  labels: readonly Label[],
  findings: readonly JsonFinding[],
): { missed: Label[]; extra: JsonFinding[] } {
  const left = [...findings];
  const missed: Label[] = [];
  for (const label of labels) {
    const i = left.findIndex(
      (f) =>
        f.class === label.class &&
        (label.file === undefined || f.file === label.file) &&
        (label.test === undefined || f.fullName === label.test) &&
        (label.measured === undefined || f.measured === label.measured) &&
        (label.rule === undefined || f.rule === label.rule),
    );
    if (i === -1) missed.push(label);
    else left.splice(i, 1);
  }
  return { missed, extra: left };
}

export interface ClassScore {
  readonly class: FindingClass;
  /** Labels matched by a finding of this class. */
  readonly truePositives: number;
  /** Findings of this class that no label asked for. */
  readonly falsePositives: number;
  /** Labels of this class that no finding matched. */
  readonly falseNegatives: number;
}

const SCORED_CLASSES: readonly FindingClass[] = ['infrastructure', 'escape', 'flake', 'budget'];

/** Per-class precision and recall over the corpus: a label counts as found only when its own finding matched it (class, file, test, measured, rule). */
export function scoreClasses(
  cases: readonly { readonly labels: readonly Label[]; readonly findings: readonly JsonFinding[] }[],
): ClassScore[] {
  return SCORED_CLASSES.map((cls) => {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const c of cases) {
      const { missed, extra } = scoreLabels(c.labels, c.findings);
      const labelled = c.labels.filter((l) => l.class === cls).length;
      const missedHere = missed.filter((l) => l.class === cls).length;
      tp += labelled - missedHere;
      fn += missedHere;
      fp += extra.filter((f) => f.class === cls).length;
    }
    return { class: cls, truePositives: tp, falsePositives: fp, falseNegatives: fn };
  });
}

const percent = (n: number, d: number): string => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)}%`);

export function formatClassScores(scores: readonly ClassScore[], title: string): string {
  const all = scores.reduce(
    (a, s) => ({ tp: a.tp + s.truePositives, fp: a.fp + s.falsePositives, fn: a.fn + s.falseNegatives }),
    { tp: 0, fp: 0, fn: 0 },
  );
  const rows = [
    ...scores.map((s) => [
      s.class,
      s.truePositives,
      s.falsePositives,
      s.falseNegatives,
      percent(s.truePositives, s.truePositives + s.falsePositives),
      percent(s.truePositives, s.truePositives + s.falseNegatives),
    ]),
    ['all', all.tp, all.fp, all.fn, percent(all.tp, all.tp + all.fp), percent(all.tp, all.tp + all.fn)],
  ];
  const lines = [
    `${title}`,
    '| class | found | extra | missed | precision | recall |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ];
  return `${lines.join('\n')}\n`;
}
