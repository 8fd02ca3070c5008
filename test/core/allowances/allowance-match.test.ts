import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  eachNamePattern,
  type MatchAllowance,
  type MatchTest,
  matchAllowances,
} from '../../../src/core/allowances/allowance-match.js';

const t = (file: string, fullName: string, fingerprint: string | null): MatchTest => ({ file, fullName, fingerprint });
const a = (id: string, file: string, test: string, fingerprint: string | null): MatchAllowance => ({
  id,
  file,
  fullName: test,
  fingerprint,
});
const none = new Map<string, string>();

function applied(allowances: MatchAllowance[], tests: MatchTest[], renames = none) {
  return matchAllowances({ allowances, tests, renames }).map((m) =>
    'test' in m ? `${m.id}:${m.kind}:${tests[m.test]?.file}::${tests[m.test]?.fullName}` : `${m.id}:${m.kind}`,
  );
}

describe('matchAllowances', () => {
  const A = a('a1', 'test/x.test.ts', 'tracker > reloads journal', 'f1');

  it('matches by file and full name first, even when the body changed', () => {
    expect(applied([A], [t('test/x.test.ts', 'tracker > reloads journal', 'other')])).toEqual([
      'a1:exact:test/x.test.ts::tracker > reloads journal',
    ]);
  });

  it('follows a renamed title or describe by fingerprint in the same file', () => {
    expect(
      applied([A], [t('test/x.test.ts', 'tracker > reloads the journal', 'f1'), t('test/x.test.ts', 'other', 'f2')]),
    ).toEqual(['a1:renamed:test/x.test.ts::tracker > reloads the journal']);
  });

  it('follows a moved file, and a moved and renamed test', () => {
    expect(applied([A], [t('test/y.test.ts', 'tracker > reloads journal', 'f1')])).toEqual([
      'a1:moved:test/y.test.ts::tracker > reloads journal',
    ]);
    expect(applied([A], [t('test/y.test.ts', 'hub > reloads', 'f1')])).toEqual([
      'a1:moved-renamed:test/y.test.ts::hub > reloads',
    ]);
  });

  it('follows a git rename when the body changed too', () => {
    const tests = [t('test/y.test.ts', 'tracker > reloads journal', 'changed')];
    expect(applied([A], tests)).toEqual(['a1:orphan']);
    expect(applied([A], tests, new Map([['test/x.test.ts', 'test/y.test.ts']]))).toEqual([
      'a1:git-renamed:test/y.test.ts::tracker > reloads journal',
    ]);
  });

  it('does not give a copy the allowance while the original keeps its name', () => {
    const tests = [
      t('test/x.test.ts', 'tracker > reloads journal', 'f1'),
      t('test/x.test.ts', 'tracker > reloads journal copy', 'f1'),
      t('test/z.test.ts', 'copy', 'f1'),
    ];
    expect(applied([A], tests)).toEqual(['a1:exact:test/x.test.ts::tracker > reloads journal']);
  });

  it('is ambiguous, and applies none, when the original was renamed and copied', () => {
    const [m] = matchAllowances({
      allowances: [A],
      tests: [t('test/x.test.ts', 'one', 'f1'), t('test/x.test.ts', 'two', 'f1')],
      renames: none,
    });
    expect(m).toMatchObject({ kind: 'ambiguous', candidates: [0, 1] });
  });

  it('is ambiguous when two allowances point at one test', () => {
    const B = a('b2', 'test/x.test.ts', 'tracker > reloads journal', 'f9');
    expect(applied([A, B], [t('test/x.test.ts', 'tracker > reloads journal', 'f1')])).toEqual([
      'a1:ambiguous',
      'b2:ambiguous',
    ]);
  });

  it('does not take a test another allowance holds exactly', () => {
    const B = a('b2', 'test/x.test.ts', 'deleted', 'f1');
    expect(applied([A, B], [t('test/x.test.ts', 'tracker > reloads journal', 'f1')])).toEqual([
      'a1:exact:test/x.test.ts::tracker > reloads journal',
      'b2:orphan',
    ]);
  });

  it('matches .each row names against the template read from source', () => {
    const each: MatchTest = {
      file: 'test/x.test.ts',
      fullName: 'adds %i + %i',
      fingerprint: 'f5',
      namePattern: eachNamePattern('adds %i + %i'),
    };
    expect(applied([a('c3', 'test/x.test.ts', 'adds 1 + 2', null)], [each])).toEqual([
      'c3:exact:test/x.test.ts::adds %i + %i',
    ]);
    const rows = [
      a('r1', 'test/x.test.ts', 'adds 1 + 2', null),
      a('r2', 'test/x.test.ts', 'adds 3 + 4', null),
      a('r3', 'test/x.test.ts', 'adds 3 + 4', null),
    ];
    expect(applied(rows, [each])).toEqual(['r1:exact:test/x.test.ts::adds %i + %i', 'r2:ambiguous', 'r3:ambiguous']);
    expect(eachNamePattern('row $name is 100%% ok %s').test('row bob is 100% ok yes')).toBe(true);
    expect(eachNamePattern('a.b %s').test('aXb 1')).toBe(false);
  });
});

describe('matchAllowances properties', () => {
  const file = fc.constantFrom('a.test.ts', 'b.test.ts', 'c.test.ts');
  const name = fc.constantFrom('n1', 'n2', 'n3', 'n4', 'g > n1', 'g > n5');
  const print = fc.option(fc.constantFrom('f1', 'f2', 'f3', 'f4'), { nil: null });
  const tests = fc.array(fc.record({ file, fullName: name, fingerprint: print }), { maxLength: 12 });
  const allowances = fc
    .array(fc.record({ file, fullName: name, fingerprint: print }), { maxLength: 8 })
    .map((list) => list.map((x, i) => ({ ...x, id: `id${i}` })));
  const renames = fc.array(fc.tuple(file, file), { maxLength: 2 }).map((pairs) => new Map(pairs));

  it('never gives one test two allowances, nor one allowance two tests', () => {
    fc.assert(
      fc.property(allowances, tests, renames, (al, ts, rn) => {
        const matches = matchAllowances({ allowances: al, tests: ts, renames: rn });
        expect(matches.map((m) => m.id)).toEqual(al.map((x) => x.id));
        const held = matches.flatMap((m) => ('test' in m ? [m.test] : []));
        expect(new Set(held).size).toBe(held.length);
        for (const h of held) expect(h).toBeLessThan(ts.length);
      }),
    );
  });

  it('never gives a copy the allowance while its original is present under the stored name', () => {
    fc.assert(
      fc.property(allowances, tests, file, fc.constantFrom('copy', 'g > copy'), (al, ts, copyFile, copyName) => {
        const first = al[0];
        fc.pre(first !== undefined && first.fingerprint !== null);
        const original = { file: first.file, fullName: first.fullName, fingerprint: first.fingerprint };
        const all = [...ts, original, { file: copyFile, fullName: copyName, fingerprint: first.fingerprint }];
        const copyIndex = all.length - 1;
        const matches = matchAllowances({ allowances: al, tests: all, renames: new Map() });
        expect(matches.some((m) => 'test' in m && m.test === copyIndex && m.id === first.id)).toBe(false);
      }),
    );
  });

  it('keeps an allowance on a renamed test whose body is unique', () => {
    fc.assert(
      fc.property(file, file, name, (from, to, newName) => {
        const al = [a('x1', from, 'old name', 'unique')];
        const ts = [t(to, newName, 'unique'), t('a.test.ts', 'n1', 'f1')];
        const [m] = matchAllowances({ allowances: al, tests: ts, renames: none });
        expect(m).toMatchObject({ test: 0, kind: from === to ? 'renamed' : 'moved-renamed' });
      }),
    );
  });
});
