import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withSignals } from '../../../src/core/cause/cause.js';
import { attachFlakeCauses, findTriageCause } from '../../../src/core/triage/triage-cause.js';
import type { TriageHistory } from '../../../src/core/triage/triage-history-facts.js';
import type { Finding, ObservedTest } from '../../../src/core/triage/triage-types.js';

const FLAKE = { class: 'flake', fullName: 'api > gets', file: 'test/api.test.ts' } as Finding;
/** The flaky test as the run observed it: test/api.test.ts:9 with these errors. */
const observedWith = (...errors: string[]): ObservedTest =>
  ({ fullName: 'api > gets', file: 'test/api.test.ts', line: 9, errors }) as unknown as ObservedTest;

describe('findTriageCause', () => {
  it('network from a port or socket error, timing from a timeout, else unknown; all inferred', () => {
    const at = { file: 'test/api.test.ts', line: 7 };
    expect(findTriageCause({ ...at, errors: ['Error: connect ECONNREFUSED 127.0.0.1:5432'] })).toMatchObject({
      class: 'network',
      confidence: 'inferred',
      fix: 'listen on port 0 and read the port back, or mock the network, at test/api.test.ts:7',
    });
    expect(findTriageCause({ ...at, errors: ['Error: Test timed out in 5000ms.'] }).class).toBe('timing');
    expect(findTriageCause({ ...at, errors: ['AssertionError: expected 2 to be 3'] })).toMatchObject({
      class: 'unknown',
      evidence: [],
    });
    expect(findTriageCause({ file: null, line: null, errors: [] }).fix).toContain('at its test file');
  });
  it('property: triage never claims measured (it controlled no condition)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string(), fc.constantFrom('EADDRINUSE', 'Test timed out in 10ms'))),
        (errors) => {
          expect(findTriageCause({ file: 'a.test.ts', line: 1, errors }).confidence).toBe('inferred');
        },
      ),
    );
  });
  it('attaches a cause to flake findings only, from their test errors', () => {
    const escaped = { ...FLAKE, class: 'escape' } as Finding;
    const [f, e] = attachFlakeCauses(
      [FLAKE, escaped],
      [observedWith('Error: listen EADDRINUSE: address already in use :::3000')],
    );
    expect(f?.flakeCause).toMatchObject({ class: 'network', fix: expect.stringContaining('test/api.test.ts:9') });
    expect(e?.flakeCause).toBeUndefined();
  });

  it("with history: a flake whose run's texts do not decide gets the class of its stored runs (core/cause/history-cause.ts)", () => {
    const run = (platform: string, state: 'passed' | 'failed') => ({
      platform,
      shard: null,
      state,
      flaky: false,
      error: null,
    });
    const outcomes = [
      ...Array.from({ length: 5 }, () => run('win32', 'failed')),
      ...Array.from({ length: 10 }, () => run('win32', 'passed')),
      ...Array.from({ length: 30 }, () => run('linux', 'passed')),
    ];
    const history: TriageHistory = {
      branch: 'main',
      window: 200,
      tests: [
        {
          project: null,
          file: 'test/api.test.ts',
          fullName: 'api > gets',
          runs: 45,
          failedRuns: 5,
          retried: [],
          rerunPassed: [],
          lastPass: null,
          durations: [],
          outcomes,
        },
      ],
    };
    expect(attachFlakeCauses([FLAKE], [observedWith('AssertionError')])[0]?.flakeCause?.class).toBe('unknown');
    expect(attachFlakeCauses([FLAKE], [observedWith('AssertionError')], history)[0]?.flakeCause).toMatchObject({
      class: 'timing',
      confidence: 'inferred',
      evidence: [{ kind: 'history', text: expect.stringContaining('failed 5/15 runs on win32, 0/30 on linux') }],
      fix: expect.stringMatching(/at test\/api\.test\.ts:9$/),
    });
  });
});

describe('withSignals', () => {
  const timeout = findTriageCause({ file: 'test/x.test.ts', line: 3, errors: ['Error: Test timed out in 5000ms.'] });
  const sleep = {
    line: 7,
    text: 'a real `setTimeout(10)`',
    classes: ['timing' as const],
    fix: 'await the event instead of `setTimeout(10)`',
  };
  const random = { line: 9, text: '`Math.random()`', classes: ['random-or-concurrency' as const], fix: 'seed it' };

  it('adds the signals as evidence; the fix names the line of a signal of its class', () => {
    const c = withSignals(timeout, [random, sleep], 'test/x.test.ts');
    expect(c.class).toBe('timing');
    expect(c.confidence).toBe('inferred');
    expect(c.evidence.slice(1)).toEqual([
      { kind: 'source', text: '`Math.random()`', line: 9 },
      { kind: 'source', text: 'a real `setTimeout(10)`', line: 7 },
    ]);
    expect(c.fix).toBe('await the event instead of `setTimeout(10)` at test/x.test.ts:7');
  });

  it('keeps the fix when no signal is of its class, and the finding when there are none', () => {
    expect(withSignals(timeout, [random], 'test/x.test.ts').fix).toBe(timeout.fix);
    expect(withSignals(timeout, [], 'test/x.test.ts')).toBe(timeout);
  });
});
