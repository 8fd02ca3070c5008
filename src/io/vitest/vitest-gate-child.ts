/**
 * A Vitest process driven by flakeguard: `node vitest-gate-child.js <job.json>`. Loads the project's
 * own Vitest (resolved from the project root) through its Node API, with the project's config,
 * flakeguard's runner and a collecting reporter, runs each batch of the job in turn and writes the
 * result JSON. Exit 0 when the result was written; anything else is a crash the parent reports.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';
import { TRIES_META_KEY, type TryRecord } from '../../core/gate/runner-protocol.js';
import type { BatchResult, CollectedTest, VitestJob, VitestJobResult } from './vitest-job.js';
import { testKey } from '../../core/test-id.js';
import { resolveProjectVitest } from './resolve-vitest.js';

type VitestNode = typeof import('vitest/node');

async function loadProjectVitest(root: string): Promise<{ api: VitestNode; version: string }> {
  const found = resolveProjectVitest(root);
  const api = (await import(pathToFileURL(found.nodeApi).href)) as VitestNode;
  return { api, version: found.version };
}

function firstLine(error: { message?: string; name?: string } | undefined): string {
  return (error?.message ?? String(error)).split('\n')[0] ?? '';
}

function collect(modules: readonly TestModule[], wanted: Set<string>): Omit<BatchResult, 'unhandledErrors'> {
  const tests: CollectedTest[] = [];
  const moduleErrors: { file: string; message: string }[] = [];
  for (const module of modules) {
    for (const error of module.errors()) moduleErrors.push({ file: module.moduleId, message: firstLine(error) });
    for (const suite of module.children.allSuites()) {
      for (const error of suite.errors()) moduleErrors.push({ file: module.moduleId, message: `${suite.fullName}: ${firstLine(error)}` });
    }
    for (const test of module.children.allTests()) {
      if (!wanted.has(testKey(module.moduleId, test.fullName))) continue;
      const result = test.result();
      const meta = test.meta() as Record<string, unknown>;
      tests.push({
        file: module.moduleId,
        fullName: test.fullName,
        line: test.location?.line ?? null,
        state: result.state,
        tries: withVitestAttempts(test, (meta[TRIES_META_KEY] as TryRecord[] | undefined) ?? []),
        errors: (result.errors ?? []).map(firstLine),
      });
    }
  }
  return { tests, moduleErrors };
}

interface AttemptLike {
  readonly state: string;
  readonly duration: number;
}

/**
 * On Vitest 5, each try's duration and outcome as Vitest itself measured them (TestCase.attempts(),
 * the same span: beforeEach to afterEach); the runner's record keeps the CPU time and the error.
 * On 4.1 (no attempts()) or when the counts disagree, the runner's own timing stands.
 */
function withVitestAttempts(test: TestCase, tries: readonly TryRecord[]): TryRecord[] {
  const attempts = (test as unknown as { attempts?: () => readonly AttemptLike[] }).attempts;
  if (typeof attempts !== 'function') return [...tries];
  const measured = attempts.call(test);
  if (measured.length !== tries.length) return [...tries];
  return tries.map((t, i) => {
    const a = measured[i];
    if (!a || (a.state !== 'passed' && a.state !== 'failed')) return t;
    return { ...t, durationMs: a.duration, state: a.state };
  });
}

async function main(jobFile: string): Promise<void> {
  const job = JSON.parse(readFileSync(jobFile, 'utf8')) as VitestJob;
  const { api, version } = await loadProjectVitest(job.root);
  let finished: { modules: readonly TestModule[]; unhandled: string[] } | null = null;
  const reporter: Reporter = {
    onTestRunEnd(modules, unhandledErrors) {
      finished = { modules, unhandled: unhandledErrors.map((e) => firstLine(e as { message?: string })) };
    },
  };
  const vitest: Vitest = await api.createVitest('test', {
    watch: false,
    root: job.root,
    retry: 0,
    includeTaskLocation: true,
    passWithNoTests: true,
    bail: 0,
    coverage: { enabled: false },
    reporters: [reporter],
  });
  try {
    const custom = vitest.projects.map((p) => p.config.runner).find((r) => typeof r === 'string' && r !== '');
    if (custom !== undefined) {
      const result: VitestJobResult = { ok: false, reason: 'custom-runner', runner: custom, vitestVersion: version };
      writeFileSync(job.resultFile, JSON.stringify(result));
      return;
    }
    for (const project of vitest.projects) project.config.runner = job.runnerPath;
    // The project that includes the file (workspaces); the root project when none claims it.
    const projectFor = (file: string) => vitest.projects.find((p) => p.matchesTestGlob(file)) ?? vitest.getRootProject();
    const batches: BatchResult[] = [];
    for (const batch of job.batches) {
      writeFileSync(job.planFile, JSON.stringify(batch.plan));
      const specs = batch.specs.map((s) => (s.lines === null ? projectFor(s.file).createSpecification(s.file) : projectFor(s.file).createSpecification(s.file, [...s.lines])));
      finished = null;
      await vitest.runTestSpecifications(specs);
      const wanted = new Set(batch.plan.tests.map((t) => testKey(t.file, t.fullName)));
      const done = finished as { modules: readonly TestModule[]; unhandled: string[] } | null;
      batches.push({ ...collect(done?.modules ?? [], wanted), unhandledErrors: done?.unhandled ?? [] });
    }
    const result: VitestJobResult = { ok: true, vitestVersion: version, batches };
    writeFileSync(job.resultFile, JSON.stringify(result));
  } finally {
    await vitest.close();
  }
}

const jobFile = process.argv[2];
if (!jobFile) {
  process.stderr.write('usage: vitest-gate-child.js <job.json>\n');
  process.exit(2);
}
main(jobFile).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
    process.exit(1);
  },
);
