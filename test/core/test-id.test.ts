import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fullNameFrom, projectTag, refKey, testKey } from '../../src/core/test-id.js';

describe('testKey', () => {
  it('tells two Vitest projects apart that hold the same file and full name', () => {
    const file = 'test/cart.test.ts';
    const fullName = 'cart > adds an item';
    expect(testKey({ project: 'node', file, fullName })).not.toBe(testKey({ project: 'edge', file, fullName }));
  });

  it("keeps an unknown project (null: a log, JUnit) apart from the unnamed one ('') and from every name", () => {
    const ref = { file: 'a.test.ts', fullName: 'g > slow' };
    expect(testKey({ ...ref, project: null })).not.toBe(testKey({ ...ref, project: '' }));
    expect(testKey({ ...ref, project: null })).not.toBe(testKey({ ...ref, project: 'null' }));
  });

  it('cannot be called without the project: the type requires it', () => {
    const ref = { file: 'a.test.ts', fullName: 'g > slow' };
    // @ts-expect-error a key without the project does not compile (issue 37)
    expect(() => testKey(ref)).not.toThrow();
    // @ts-expect-error nor with the project left undefined
    expect(() => testKey({ ...ref, project: undefined })).not.toThrow();
  });

  it('gives two identities one key only when project, file and full name are the same', () => {
    const part = fc.string({ maxLength: 6, unit: fc.constantFrom('a', ':', '>', ' ', '"', '\\', ',') });
    const id = fc.record({ project: fc.option(part, { nil: null }), file: part, fullName: part });
    fc.assert(
      fc.property(id, id, (a, b) => {
        const same = a.project === b.project && a.file === b.file && a.fullName === b.fullName;
        expect(testKey(a) === testKey(b)).toBe(same);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps a triage input whose log left out the file apart from one whose file is the text "null"', () => {
    expect(testKey({ project: '', file: null, fullName: 'x' })).not.toBe(
      testKey({ project: '', file: 'null', fullName: 'x' }),
    );
  });
});

describe('refKey: a test in every project (allowances, quarantines, places in source)', () => {
  it('is one key for the same file and full name in every project, and never a testKey', () => {
    const part = fc.string({ maxLength: 6, unit: fc.constantFrom('a', '"', ',', 'ref', ' ') });
    fc.assert(
      fc.property(part, part, fc.option(part, { nil: null }), (file, fullName, project) => {
        expect(refKey({ file, fullName })).not.toBe(testKey({ project, file, fullName }));
      }),
    );
    expect(refKey({ file: 'a', fullName: 'b' })).toBe(refKey({ file: 'a', fullName: 'b' }));
    expect(refKey({ file: 'a', fullName: 'b > c' })).not.toBe(refKey({ file: 'a > b', fullName: 'c' }));
  });
});

describe('projectTag', () => {
  it('names a named project and nothing for the unnamed or an unknown one', () => {
    expect(projectTag('node')).toBe(' [node]');
    expect(projectTag('')).toBe('');
    expect(projectTag(null)).toBe('');
  });
});

describe('fullNameFrom: an older format read back', () => {
  it("reads 0.1.0's name or test as fullName in its place, and leaves every other field as it was", () => {
    const row = fc.record({
      file: fc.string(),
      name: fc.string(),
      line: fc.option(fc.nat(), { nil: null }),
      project: fc.option(fc.string(), { nil: null }),
    });
    fc.assert(
      fc.property(row, fc.constantFrom('name' as const, 'test' as const), (r, from) => {
        const { name, ...rest } = r;
        const old = Object.fromEntries(Object.entries(r).map(([k, v]) => [k === 'name' ? from : k, v]));
        const read = fullNameFrom(old, from);
        expect(Object.keys(read)).toEqual(Object.keys(r).map((k) => (k === 'name' ? 'fullName' : k)));
        expect(read).toEqual({ ...rest, fullName: name });
      }),
    );
  });
});
