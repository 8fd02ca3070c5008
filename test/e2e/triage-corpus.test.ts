/**
 * Scores triage on the corpus: every case is a real red run (Vitest really ran on a fixture with a
 * fault injected; the steps before it really ran), and every label must be matched by its own
 * finding. Extra findings are reported too: a case lists every finding triage should make.
 * Triage runs in this process, or as the built CLI where it re-runs Vitest: `npm run build` first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type Fixture } from '../helpers/fixture.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { INFRA_CASES } from '../triage-corpus/cases-infra.js';
import { LAYOUT_CASES } from '../triage-corpus/cases-layouts.js';
import { TEST_CASES } from '../triage-corpus/cases-tests.js';
import {
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

async function runCase(c: CorpusCase): Promise<Outcome> {
  const fx = await createFixture({ files: caseFiles(c), ...(c.git ? { git: true } : {}) });
  fixtures.push(fx);
  const run = await buildRun(c, fx);
  const args = triageArgs(c, run);
  // Triage reads files and prints JSON: in this process (test/helpers/in-process-cli.ts), except where
  // it re-runs Vitest (--rerun), as a spawned CLI does.
  const result = args.includes('--rerun') ? await fx.flakeguard(args) : await runCliInProcess(fx.root, args);
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
  const queue = [...CASES];
  const worker = async (): Promise<void> => {
    for (let c = queue.shift(); c !== undefined; c = queue.shift()) outcomes.set(c.id, await runCase(c));
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
