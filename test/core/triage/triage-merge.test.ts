import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatTriage, toTriageJson } from '../../../src/core/triage/triage-format.js';
import { mergeObservations } from '../../../src/core/triage/triage-merge.js';
import { FILE, makeObservedTest, NAME, triageOf } from './triage-factories.js';

/** The same test in two Vitest projects, as the run record saw it: failed in edge, passed in node. */
const inBoth = [
  makeObservedTest({ source: 'record', project: 'node', state: 'passed', errors: [], origin: 'run.json: node' }),
  makeObservedTest({ source: 'record', project: 'edge', state: 'failed', origin: 'run.json: edge' }),
];

describe('mergeObservations: the Vitest project keeps two tests of one file and name apart', () => {
  it('keeps a failure in one project and a pass in the other as two entries', () => {
    const merged = mergeObservations(inBoth);
    expect(merged.map((m) => [m.project, m.state])).toEqual([
      ['node', 'passed'],
      ['edge', 'failed'],
    ]);
  });

  it('joins an input that cannot name the project (JUnit, a JSON report) to the one project that failed', () => {
    const junit = makeObservedTest({ source: 'junit', project: null, origin: 'junit.xml: case' });
    const merged = mergeObservations([...inBoth, junit]);
    expect(merged).toHaveLength(2);
    expect(merged.find((m) => m.project === 'edge')?.origins).toEqual(['run.json: edge', 'junit.xml: case']);
  });

  it("joins a log line to the project it names (`FAIL |edge| ...`), and one that names none to the only project's entry", () => {
    const named = makeObservedTest({ source: 'log', project: 'edge', origin: 'ci.log:3' });
    expect(mergeObservations([...inBoth, named]).find((m) => m.project === 'edge')?.origins).toContain('ci.log:3');
    const only = makeObservedTest({ source: 'record', project: 'node', origin: 'run.json: node' });
    const log = makeObservedTest({ source: 'log', project: null, origin: 'ci.log:9' });
    expect(mergeObservations([only, log]).map((m) => [m.project, m.origins])).toEqual([
      ['node', ['run.json: node', 'ci.log:9']],
    ]);
  });

  it('leaves an unknown-project failure apart when both projects failed: it is not given to either', () => {
    const both = inBoth.map((o) => ({ ...o, state: 'failed' as const, errors: ['AssertionError: x'] }));
    const junit = makeObservedTest({ source: 'junit', project: null, origin: 'junit.xml: case' });
    const merged = mergeObservations([...both, junit]);
    expect(merged.map((m) => m.project)).toEqual(['node', 'edge', null]);
  });

  it('property: never merges observations that name two different projects', () => {
    const obs = fc.record({
      project: fc.constantFrom(null, '', 'node', 'edge'),
      file: fc.constantFrom(null, FILE, 'test/b.test.ts'),
      state: fc.constantFrom('passed' as const, 'failed' as const),
      source: fc.constantFrom('record' as const, 'report' as const, 'junit' as const, 'log' as const),
    });
    fc.assert(
      fc.property(fc.array(obs, { maxLength: 8 }), (raw) => {
        const observations = raw.map((o, i) => makeObservedTest({ ...o, origin: `o${i}` }));
        for (const m of mergeObservations(observations)) {
          const projects = new Set(
            m.origins.map((o) => observations.find((x) => x.origin === o)?.project).filter((p) => p != null),
          );
          expect(projects.size).toBeLessThanOrEqual(1);
        }
        expect(mergeObservations(observations).flatMap((m) => m.origins)).toHaveLength(observations.length);
      }),
    );
  });
});

describe('triage names the project of each finding', () => {
  it('a quarantine (no project) excuses the failure in its project, also when the quarantined input named none', () => {
    // A JSON report under the checkout's quarantine (project unknown) and the log's FAIL |edge| line.
    const report = makeObservedTest({ source: 'report', project: null, quarantined: true, origin: 'r.json' });
    const log = makeObservedTest({ source: 'log', project: 'edge', origin: 'ci.log:3' });
    expect(triageOf({ tests: [report, log], exitCode: 0 }).findings).toEqual([]);
    expect(triageOf({ tests: [log] }).findings.map((f) => [f.project, f.class])).toEqual([['edge', 'escape']]);
  });

  it('in the text and in the JSON (version 2: fullName and project)', () => {
    const r = triageOf({ tests: inBoth });
    expect(r.findings.map((f) => [f.project, f.fullName, f.class])).toEqual([['edge', NAME, 'escape']]);
    expect(formatTriage(r)).toContain(`${FILE} [edge] > ${NAME}`);
    expect(toTriageJson(r)).toMatchObject({ version: 2, findings: [{ project: 'edge', fullName: NAME, file: FILE }] });
    expect(toTriageJson(r).findings[0]).not.toHaveProperty('test');
  });
});
