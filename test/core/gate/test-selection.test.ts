import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type SelectableTest, selectTests } from '../../../src/core/gate/test-selection.js';

const makeTest = (over: Partial<SelectableTest> = {}): SelectableTest => ({
  file: 'test/a.test.ts',
  fullName: 'suite > works',
  line: 3,
  fingerprint: 'fp-1',
  ...over,
});

const kinds = (base: SelectableTest[], head: SelectableTest[]) =>
  selectTests(base, head).selected.map((s) => `${s.kind} ${s.test.file}::${s.test.fullName}`);

describe('selectTests', () => {
  it('leaves an unchanged test out and counts it', () => {
    const t = makeTest();
    expect(selectTests([t], [{ ...t, line: 10 }])).toEqual({ selected: [], unchanged: 1 });
  });

  it('names new, changed, renamed and moved tests', () => {
    const base = [
      makeTest({ fullName: 'edited', fingerprint: 'e1' }),
      makeTest({ fullName: 'old name', fingerprint: 'r1' }),
      makeTest({ fullName: 'travels', fingerprint: 'm1' }),
    ];
    const head = [
      makeTest({ fullName: 'edited', fingerprint: 'e2' }),
      makeTest({ fullName: 'new name', fingerprint: 'r1' }),
      makeTest({ file: 'test/b.test.ts', fullName: 'travels', fingerprint: 'm1' }),
      makeTest({ fullName: 'brand new', fingerprint: 'n1' }),
    ];
    expect(kinds(base, head)).toEqual([
      'changed test/a.test.ts::edited',
      'renamed test/a.test.ts::new name',
      'moved test/b.test.ts::travels',
      'new test/a.test.ts::brand new',
    ]);
  });

  it('does not give one old test to two new copies of its body', () => {
    const base = [makeTest({ fullName: 'one', fingerprint: 'same' })];
    const head = [
      makeTest({ fullName: 'two', fingerprint: 'same' }),
      makeTest({ fullName: 'three', fingerprint: 'same' }),
    ];
    expect(kinds(base, head)).toEqual(['renamed test/a.test.ts::two', 'new test/a.test.ts::three']);
  });

  it('a copy of a test that still exists is new, not renamed', () => {
    const t = makeTest({ fullName: 'kept', fingerprint: 'k' });
    expect(kinds([t], [t, makeTest({ fullName: 'copy', fingerprint: 'k' })])).toEqual(['new test/a.test.ts::copy']);
  });
});

const arbTests = fc.uniqueArray(
  fc.record({
    file: fc.constantFrom('a.test.ts', 'b.test.ts', 'c.spec.ts'),
    fullName: fc.string({ minLength: 1, maxLength: 6 }),
    line: fc.nat(200),
    fingerprint: fc.string({ minLength: 1, maxLength: 4 }),
  }),
  { selector: (t) => `${t.file}::${t.fullName}`, maxLength: 25 },
);

describe('selection properties', () => {
  it('an unchanged test is never selected', () => {
    fc.assert(
      fc.property(arbTests, arbTests, (base, extra) => {
        const head = [
          ...base,
          ...extra.filter((e) => !base.some((b) => b.file === e.file && b.fullName === e.fullName)),
        ];
        const selected = selectTests(base, head).selected.map((s) => s.test);
        return base.every((b) => !selected.includes(b));
      }),
    );
  });

  it('a rename alone is never "new"', () => {
    fc.assert(
      fc.property(arbTests, fc.nat(), fc.string({ minLength: 1, maxLength: 8 }), (base, pick, suffix) => {
        if (base.length === 0) return true;
        const index = pick % base.length;
        const original = base[index]!;
        const newName = `${original.fullName}~${suffix}`;
        if (base.some((b) => b.file === original.file && b.fullName === newName)) return true;
        const renamed = { ...original, fullName: newName };
        const head = base.map((b, i) => (i === index ? renamed : b));
        const selection = selectTests(base, head);
        const entry = selection.selected.find((s) => s.test === renamed);
        return entry?.kind === 'renamed' && selection.selected.length === 1;
      }),
    );
  });

  it('a move alone is "moved" and selects nothing else', () => {
    fc.assert(
      fc.property(arbTests, fc.nat(), (base, pick) => {
        if (base.length === 0) return true;
        const index = pick % base.length;
        const original = base[index]!;
        const moved = { ...original, file: `moved/${original.file}` };
        const head = base.map((b, i) => (i === index ? moved : b));
        const selection = selectTests(base, head);
        return selection.selected.length === 1 && selection.selected[0]?.kind === 'moved';
      }),
    );
  });
});
