import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fullNameAs, fullNameFrom, testKey } from '../../src/core/test-id.js';

describe('testKey', () => {
  it('tells two Vitest projects apart that hold the same file and full name', () => {
    const file = 'test/cart.test.ts';
    const fullName = 'cart > adds an item';
    expect(testKey({ project: 'node', file, fullName })).not.toBe(testKey({ project: 'edge', file, fullName }));
  });

  it('keys an identity without a project (a test read from source, a log) as the unnamed project', () => {
    const id = { file: 'a.test.ts', fullName: 'g > slow' };
    expect(testKey(id)).toBe(testKey({ ...id, project: '' }));
    expect(testKey(id)).toBe(testKey({ ...id, project: null }));
  });

  it('gives two identities one key only when project, file and full name are the same', () => {
    const part = fc.string({ maxLength: 6, unit: fc.constantFrom('a', ':', '>', ' ', '"', '\\', ',') });
    const id = fc.record({ project: part, file: part, fullName: part });
    fc.assert(
      fc.property(id, id, (a, b) => {
        const same = a.project === b.project && a.file === b.file && a.fullName === b.fullName;
        expect(testKey(a) === testKey(b)).toBe(same);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps a triage input whose log left out the file apart from one whose file is the text "null"', () => {
    expect(testKey({ file: null, fullName: 'x' })).not.toBe(testKey({ file: 'null', fullName: 'x' }));
  });
});

describe('fullNameAs and fullNameFrom: the full name at the JSON edge', () => {
  it('write fullName under the JSON field name in its place, and read it back to the same object', () => {
    const row = fc.record({
      file: fc.string(),
      fullName: fc.string(),
      line: fc.option(fc.nat(), { nil: null }),
      project: fc.option(fc.string(), { nil: null }),
    });
    fc.assert(
      fc.property(row, fc.constantFrom('name' as const, 'test' as const), (t, as) => {
        const json = fullNameAs(t, as);
        expect(Object.keys(json)).toEqual(Object.keys(t).map((k) => (k === 'fullName' ? as : k)));
        expect(JSON.stringify(json)).toBe(JSON.stringify(t).replace('"fullName":', `"${as}":`));
        expect(fullNameFrom(json, as)).toEqual(t);
      }),
    );
  });
});
