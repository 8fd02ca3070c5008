import { describe, expect, it } from 'vitest';
import { matchAllowances } from '../../../src/core/allowances/allowance-match.js';
import { buildUniverse, findSourceTest } from '../../../src/core/allowances/allowance-universe.js';
import { extractTests } from '../../../src/core/source/test-source.js';

const CODE = `import { describe, it } from 'vitest';
describe('g', () => {
  it('plain', () => { a(); });
  it.each([1, 2])('row %i', (n) => { b(n); });
  it('twin', () => { c(); }); it('twin two', () => { d(); });
});
`;
const source = extractTests(CODE, 'a.test.ts');

describe('findSourceTest', () => {
  it('finds a reported test by name, by line, or by its .each template', () => {
    expect(findSourceTest({ file: 'a.test.ts', fullName: 'g > plain', line: null }, source)?.fullName).toBe(
      'g > plain',
    );
    expect(findSourceTest({ file: 'a.test.ts', fullName: 'g > row 2', line: 4 }, source)?.fullName).toBe('g > row %i');
    expect(findSourceTest({ file: 'a.test.ts', fullName: 'g > row 2', line: null }, source)?.fullName).toBe(
      'g > row %i',
    );
    expect(findSourceTest({ file: 'a.test.ts', fullName: 'g > twin two', line: 5 }, source)?.fullName).toBe(
      'g > twin two',
    );
    expect(findSourceTest({ file: 'a.test.ts', fullName: 'g > renamed meanwhile', line: 5 }, source)).toBeNull();
  });
});

describe('buildUniverse', () => {
  it('gives reported tests their fingerprints and adds source tests of files the run left out', () => {
    const universe = buildUniverse(
      [{ file: 'a.test.ts', fullName: 'g > row 1', line: 4 }],
      new Map([
        ['a.test.ts', source],
        ['b.test.ts', extractTests(`it('other', () => {});`, 'b.test.ts')],
      ]),
    );
    expect(universe.map((t) => [t.file, t.fullName, t.inRun, t.fingerprint === source[1]?.fingerprint])).toEqual([
      ['a.test.ts', 'g > row 1', true, true],
      ['b.test.ts', 'other', false, false],
    ]);
  });

  it('lets a caller that reports .each templates (the gate) match allowances stored under row names', () => {
    const universe = buildUniverse(
      source.map((t) => ({ file: t.file, fullName: t.fullName, line: t.line })),
      new Map([['a.test.ts', source]]),
    );
    const [m] = matchAllowances({
      allowances: [{ id: 'a1', file: 'a.test.ts', fullName: 'g > row 2', fingerprint: null }],
      tests: universe,
      renames: new Map(),
    });
    expect(m).toMatchObject({ kind: 'exact' });
    expect(universe[(m as { test: number }).test]?.fullName).toBe('g > row %i');
  });

  it('holds a test two Vitest projects reported once: its allowance matches it exactly, not ambiguously', () => {
    const ran = ['node', 'edge'].map((project) => ({ project, file: 'a.test.ts', fullName: 'g > plain', line: 3 }));
    const universe = buildUniverse(ran, new Map([['a.test.ts', source]]));
    expect(universe.filter((t) => t.inRun).map((t) => t.fullName)).toEqual(['g > plain']);
    const [m] = matchAllowances({
      allowances: [{ id: 'a1', file: 'a.test.ts', fullName: 'g > plain', fingerprint: null }],
      tests: universe,
      renames: new Map(),
    });
    expect(m).toMatchObject({ kind: 'exact' });
  });
});
