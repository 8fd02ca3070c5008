/**
 * Scores triage on the corpus: every case is a real red run (Vitest really ran on a fixture with a
 * fault injected; the steps before it really ran), and every label must be matched by its own
 * finding. Extra findings are reported too: a case lists every finding triage should make.
 * Triage runs in this process (test/helpers/in-process-cli.ts; its --rerun starts the project's
 * Vitest as a spawned CLI would; test/e2e/triage-rerun.test.ts spawns `triage --rerun`): `npm run
 * build` first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type Fixture } from '../helpers/fixture.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { INFRA_CASES } from '../triage-corpus/cases-infra.js';
import { LAYOUT_CASES } from '../triage-corpus/cases-layouts.js';
import { TEST_CASES } from '../triage-corpus/cases-tests.js';
import {
  type BuiltRun,
  buildRun,
  type CorpusCase,
  caseFiles,
  formatClassScores,
  type JsonFinding,
  labelsFor,
  scoreClasses,
  scoreLabels,
  triageArgs,
  VITEST_MAJOR,
  VITEST_VERSION,
} from '../triage-corpus/corpus.js';

// FLAKEGUARD_CORPUS_CASES=id,id builds only those cases (while working on one); the full corpus otherwise.
const ONLY = process.env['FLAKEGUARD_CORPUS_CASES']?.split(',').filter((id) => id !== '');
const CASES: readonly CorpusCase[] = [...TEST_CASES, ...INFRA_CASES, ...LAYOUT_CASES].filter(
  (c) => !ONLY || ONLY.includes(c.id),
);
const CONCURRENCY = 2;

interface Outcome {
  readonly exitCode: number;
  readonly triageExit: number;
  readonly verdict: string;
  readonly findings: readonly JsonFinding[];
  readonly output: string;
}

const outcomes = new Map<string, Outcome>();
const fixtures: Fixture[] = [];

const isRerun = (c: CorpusCase): boolean => c.triageArgs?.includes('--rerun') === true;

/** What builds a case's red run: cases alike in all of it share one real run (one fixture Vitest run). */
function buildKey(c: CorpusCase): string {
  const { id: _id, fault: _fault, labels: _labels, labelsV5: _v5, triageArgs: _args, inputs: _inputs, ...build } = c;
  return JSON.stringify(build);
}

/**
 * Cases grouped by their run, the run's readers first: a --rerun re-runs Vitest in the fixture (it may
 * leave files), so it comes last and at most one per group.
 */
function groupByRun(cases: readonly CorpusCase[]): CorpusCase[][] {
  const groups: { key: string; cases: CorpusCase[] }[] = [];
  for (const c of cases) {
    const key = buildKey(c);
    const group = groups.find((g) => g.key === key && !(isRerun(c) && g.cases.some(isRerun)));
    if (group) group.cases.push(c);
    else groups.push({ key, cases: [c] });
  }
  return groups.map((g) => [...g.cases.filter((c) => !isRerun(c)), ...g.cases.filter(isRerun)]);
}

/** Builds the group's red run once (the CI steps, the fixture Vitest run), then triages it once per case. */
async function runGroup(group: readonly CorpusCase[]): Promise<void> {
  const first = group[0] as CorpusCase;
  const fx = await createFixture({ files: caseFiles(first), ...(first.git ? { git: true } : {}) });
  fixtures.push(fx);
  const run = await buildRun(first, fx);
  for (const c of group) outcomes.set(c.id, await triageCase(c, fx, run));
}

async function triageCase(c: CorpusCase, fx: Fixture, run: BuiltRun): Promise<Outcome> {
  const result = await runCliInProcess(fx.root, triageArgs(c, run));
  let parsed: { verdict: string; findings: JsonFinding[] } = { verdict: 'unparsed', findings: [] };
  try {
    parsed = JSON.parse(result.stdout) as typeof parsed;
  } catch {
    // reported by the assertions below with the CLI's output
  }
  return {
    exitCode: run.exitCode,
    triageExit: result.exitCode,
    verdict: parsed.verdict,
    findings: parsed.findings,
    output: result.output,
  };
}

beforeAll(async () => {
  const queue = groupByRun(CASES);
  const worker = async (): Promise<void> => {
    for (let g = queue.shift(); g !== undefined; g = queue.shift()) await runGroup(g);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}, 300_000);

afterAll(() => {
  for (const fx of fixtures) fx.remove();
  // Per-class precision and recall: a label is found only by its own finding; a case triage could not classify (exit 2) misses all its labels.
  const scored = CASES.map((c) => ({ labels: labelsFor(c), findings: outcomes.get(c.id)?.findings ?? [] }));
  process.stdout.write(
    `\n${formatClassScores(scoreClasses(scored), `triage corpus: ${CASES.length} cases, vitest ${VITEST_VERSION}`)}`,
  );
});

describe('triage corpus', () => {
  it('holds at least 20 red runs covering every class and mixes of two classes', () => {
    if (ONLY) return;
    expect(CASES.length).toBeGreaterThanOrEqual(20);
    const classes = new Set(CASES.flatMap((c) => labelsFor(c).map((l) => l.class)));
    expect([...classes].sort()).toEqual(['budget', 'escape', 'flake', 'infrastructure']);
    expect(CASES.filter((c) => new Set(labelsFor(c).map((l) => l.class)).size >= 2).length).toBeGreaterThanOrEqual(3);
  });

  it.each(CASES.map((c) => [c.id, c] as const))(
    `%s: every label is matched and nothing else is found (vitest ${VITEST_MAJOR})`,
    (_id, c) => {
      const o = outcomes.get(c.id);
      expect(o, 'case was built').toBeDefined();
      if (!o) return;
      const detail = `${c.fault}\nfindings: ${JSON.stringify(o.findings, null, 2)}\n${o.findings.length === 0 ? o.output : ''}`;
      expect(o.findings.length > 0 && o.verdict === 'red', detail).toBe(true);
      expect(o.triageExit, detail).toBe(1);
      const { missed, extra } = scoreLabels(labelsFor(c), o.findings);
      expect(missed, detail).toEqual([]);
      expect(extra, detail).toEqual([]);
      for (const f of o.findings) {
        expect(f.cause, detail).not.toBe('');
        expect(f.evidence.length, detail).toBeGreaterThan(0);
      }
    },
  );
});
