import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  carryAcrossFiles,
  carryInFile,
  type Lineage,
  type VersionTest,
} from '../../../src/core/allowances/allowance-lineage.js';
import { type MatchAllowance, type MatchTest, matchAllowances } from '../../../src/core/allowances/allowance-match.js';

const v = (fullName: string, fingerprint: string | null): VersionTest => ({ fullName, fingerprint });
const state = { file: 'a.test.ts', fullName: 'g > slow', fingerprint: 'f1' };

describe('carrying a test across one change', () => {
  it('keeps the test by name when its body was edited, recording the new body', () => {
    expect(carryInFile(state, 'a.test.ts', [v('g > other', 'f1x'), v('g > slow', 'f2')])).toEqual({
      kind: 'kept',
      index: 1,
      state: { file: 'a.test.ts', fullName: 'g > slow', fingerprint: 'f2' },
    });
  });

  it('keeps the test by body when its title or describe was renamed, and across a file rename', () => {
    expect(carryInFile(state, 'b.test.ts', [v('h > slow too', 'f1')])).toEqual({
      kind: 'kept',
      index: 0,
      state: { file: 'b.test.ts', fullName: 'h > slow too', fingerprint: 'f1' },
    });
  });

  it('loses the test when its name and body changed in one step', () => {
    expect(carryInFile(state, 'a.test.ts', [v('g > renamed', 'f9')])).toEqual({ kind: 'gone' });
  });

  it('is ambiguous when two tests have the body and none the name, and picks by body among two of one name', () => {
    expect(carryInFile(state, 'a.test.ts', [v('x', 'f1'), v('y', 'f1')])).toMatchObject({ kind: 'ambiguous' });
    expect(carryInFile(state, 'a.test.ts', [v('g > slow', 'f7'), v('g > slow', 'f1')])).toMatchObject({
      kind: 'kept',
      index: 1,
    });
  });

  it('finds a test moved to another changed file by its body', () => {
    const files = new Map([
      ['b.test.ts', [v('moved here', 'f1')]],
      ['c.test.ts', [v('g > slow', 'f5')]],
    ]);
    expect(carryAcrossFiles(state, files)).toEqual({
      kind: 'kept',
      index: 0,
      state: { file: 'b.test.ts', fullName: 'moved here', fingerprint: 'f1' },
    });
    expect(carryAcrossFiles(state, new Map([['b.test.ts', [v('one', 'f1'), v('two', 'f1')]]]))).toMatchObject({
      kind: 'ambiguous',
    });
  });
});

const A: MatchAllowance = { id: 'a1', file: 'a.test.ts', fullName: 'g > slow', fingerprint: 'f1' };
const t = (file: string, fullName: string, fingerprint: string | null): MatchTest => ({ file, fullName, fingerprint });
const traced = (file: string, name: string, fingerprint: string): Lineage => ({
  kind: 'traced',
  state: { file, fullName: name, fingerprint },
  steps: 2,
});

describe('matching with lineage', () => {
  it('gives the allowance to the test its lineage reaches, not to a copy of the stored body', () => {
    const tests = [t('a.test.ts', 'g > copy', 'f1'), t('b.test.ts', 'g > renamed', 'f2')];
    const [m] = matchAllowances({
      allowances: [A],
      tests,
      renames: new Map(),
      lineage: new Map([['a1', traced('b.test.ts', 'g > renamed', 'f2')]]),
    });
    expect(m).toEqual({ kind: 'moved-renamed', id: 'a1', test: 1, via: 'lineage' });
  });

  it('is an orphan with the reason when the lineage ended, even with a copy of the stored body around', () => {
    const [m] = matchAllowances({
      allowances: [A],
      tests: [t('a.test.ts', 'g > copy', 'f1')],
      renames: new Map(),
      lineage: new Map([['a1', { kind: 'ended', why: 'deleted in commit abc' } as const]]),
    });
    expect(m).toEqual({ kind: 'orphan', id: 'a1', why: 'deleted in commit abc' });
  });

  it('falls back to name and body when there is no lineage', () => {
    const [m] = matchAllowances({
      allowances: [A],
      tests: [t('a.test.ts', 'g > new title', 'f1')],
      renames: new Map(),
      lineage: new Map([['a1', { kind: 'unavailable', why: 'shallow' } as const]]),
    });
    expect(m).toEqual({ kind: 'renamed', id: 'a1', test: 0 });
  });

  it('takes the working tree step: a file renamed and a title changed since HEAD', () => {
    const tests = [t('c.test.ts', 'g > now', 'f2')];
    const worktree = {
      renames: new Map([['b.test.ts', 'c.test.ts']]),
      deleted: new Set(['b.test.ts']),
      changed: new Set(['c.test.ts']),
    };
    const [m] = matchAllowances({
      allowances: [A],
      tests,
      renames: new Map(),
      lineage: new Map([['a1', traced('b.test.ts', 'g > then', 'f2')]]),
      worktree,
    });
    expect(m).toMatchObject({ kind: 'moved-renamed', test: 0, via: 'lineage' });
  });

  it('never gives an allowance with lineage to a test its lineage does not reach (property)', () => {
    const universe = fc.array(
      fc.record({
        file: fc.constantFrom('a.test.ts', 'b.test.ts'),
        fullName: fc.constantFrom('g > slow', 'x', 'y', 'z'),
        fingerprint: fc.constantFrom('f1', 'f2', null),
      }),
      { maxLength: 8 },
    );
    fc.assert(
      fc.property(universe, fc.nat(7), (tests, pick) => {
        const target = tests[pick % Math.max(tests.length, 1)];
        const lineage = new Map<string, Lineage>([
          [
            'a1',
            target ? traced(target.file, target.fullName, target.fingerprint ?? 'f2') : { kind: 'ended', why: 'gone' },
          ],
        ]);
        const [m] = matchAllowances({ allowances: [A], tests, renames: new Map(), lineage });
        if (m && 'test' in m) {
          const got = tests[m.test];
          // Either the exact name at the stored file (stage 1) or the test the lineage names.
          const exact = got?.file === A.file && got.fullName === A.fullName;
          expect(exact || (got?.file === target?.file && got?.fullName === target?.fullName)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
