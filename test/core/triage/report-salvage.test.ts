import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { salvageJson } from '../../../src/core/triage/report-salvage.js';
import { readVitestJsonReport } from '../../../src/core/triage/triage-vitest-json.js';

const assertion = fc.record({
  ancestorTitles: fc.array(fc.string({ maxLength: 8 }), { maxLength: 2 }),
  fullName: fc.string({ maxLength: 12 }),
  status: fc.constantFrom('passed', 'failed', 'skipped', 'pending'),
  title: fc.string({ minLength: 1, maxLength: 12 }),
  duration: fc.double({ min: 0, max: 10_000, noNaN: true }),
  failureMessages: fc.array(fc.string({ maxLength: 30 }), { maxLength: 2 }),
  meta: fc.constant({}),
  tags: fc.constant([]),
});

const fileEntry = fc.record({
  assertionResults: fc.array(assertion, { maxLength: 4 }),
  startTime: fc.integer({ min: 0, max: 1e12 }),
  endTime: fc.integer({ min: 0, max: 1e12 }),
  status: fc.constantFrom('passed', 'failed'),
  message: fc.string({ maxLength: 20 }),
  name: fc
    .string({ minLength: 1, maxLength: 20 })
    .map((s) => `/home/runner/work/app/app/test/${s.replace(/[\s/\\]/g, '_')}.test.ts`),
});

const report = fc.record({
  numTotalTests: fc.nat(100),
  success: fc.boolean(),
  startTime: fc.nat(),
  testResults: fc.array(fileEntry, { maxLength: 4 }),
});

describe('salvageJson', () => {
  it('reads a whole document exactly like JSON.parse', () => {
    fc.assert(
      fc.property(report, fc.boolean(), (r, pretty) => {
        const text = JSON.stringify(r, null, pretty ? 2 : undefined);
        const s = salvageJson(text);
        expect(s.complete).toBe(true);
        expect(s.value).toEqual(JSON.parse(text));
      }),
    );
  });

  it('never throws on any prefix and salvages only complete entries (property)', () => {
    fc.assert(
      fc.property(report, fc.boolean(), fc.double({ min: 0, max: 1, noNaN: true }), (r, pretty, share) => {
        const text = JSON.stringify(r, null, pretty ? 2 : undefined);
        const cut = Math.floor(text.length * share);
        const s = salvageJson(text.slice(0, cut));
        const read = readVitestJsonReport(s.value, s.partial, 'r.json', (p) => p);
        const original = readVitestJsonReport(r, new Set(), 'r.json', (p) => p);
        // Every salvaged test is an original test with the same name, state and errors.
        for (const t of read.tests.filter((x) => x.kind === 'test')) {
          const match = original.tests.find(
            (o) =>
              o.fullName === t.fullName &&
              o.state === t.state &&
              o.durationMs === t.durationMs &&
              JSON.stringify(o.errors) === JSON.stringify(t.errors),
          );
          expect(match).toBeDefined();
        }
        expect(read.entries).toBeLessThanOrEqual(original.entries);
        if (cut === text.length) expect(read.entries).toBe(original.entries);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the complete entries before a cut and drops the one the cut went through', () => {
    const r = {
      testResults: [
        {
          assertionResults: [
            { ancestorTitles: ['a'], title: 'one', status: 'failed', failureMessages: ['boom'] },
            { ancestorTitles: ['a'], title: 'two', status: 'passed', failureMessages: [] },
          ],
          name: '/x/t.test.ts',
        },
      ],
    };
    const text = JSON.stringify(r);
    const s = salvageJson(text.slice(0, text.indexOf('"two"') + 3));
    expect(s.complete).toBe(false);
    const read = readVitestJsonReport(s.value, s.partial, 'r.json', (p) => p);
    expect(read.tests.map((t) => t.fullName)).toEqual(['a > one']);
    expect(read.tests[0]?.file).toBeNull();
  });

  it('finds the file of a cut entry from its failure stack', () => {
    const text = JSON.stringify({
      testResults: [
        {
          assertionResults: [
            {
              ancestorTitles: [],
              title: 'x',
              status: 'failed',
              failureMessages: ['Error: no\n    at /home/runner/work/a/a/test/x.test.ts:3:9'],
            },
            { title: 'y' },
          ],
        },
      ],
    });
    const s = salvageJson(text.slice(0, text.indexOf('{"title":"y"') + 5));
    const read = readVitestJsonReport(s.value, s.partial, 'r.json', (p) => p.replace('/home/runner/work/a/a/', ''));
    expect(read.tests[0]?.file).toBe('test/x.test.ts');
  });

  it('stops at corruption in the middle and says where', () => {
    const s = salvageJson('{"testResults":[{"assertionResults":[]}, oops]}');
    expect(s.complete).toBe(false);
    expect(s.stoppedAt).toBe(41);
    expect((s.value as { testResults: unknown[] }).testResults).toEqual([{ assertionResults: [] }]);
  });

  it('does not throw on deep nesting or garbage', () => {
    expect(() => salvageJson('['.repeat(100_000))).not.toThrow();
    expect(salvageJson('').value).toBeUndefined();
    expect(salvageJson('\u0000garbage').complete).toBe(false);
  });
});
