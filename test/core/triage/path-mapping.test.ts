import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapPathOntoRoot } from '../../../src/core/triage/path-mapping.js';

const segment = fc.stringMatching(/^[a-z0-9_-]{1,8}$/);

describe('mapPathOntoRoot', () => {
  it('maps a GitHub runner path onto the local root', () => {
    const exists = (rel: string) => rel === 'test/x.test.ts';
    expect(mapPathOntoRoot('/home/runner/work/app/app/test/x.test.ts', '/work/app', exists)).toEqual({
      path: 'test/x.test.ts',
      mapped: true,
    });
  });

  it('keeps relative paths and strips the local root', () => {
    expect(mapPathOntoRoot('./test/a.test.ts', '/r', () => false)).toEqual({ path: 'test/a.test.ts', mapped: true });
    expect(mapPathOntoRoot('/r/test/a.test.ts', '/r', () => false)).toEqual({ path: 'test/a.test.ts', mapped: true });
    expect(mapPathOntoRoot('C:\\a\\app\\app\\test\\a.test.ts', '/r', (p) => p === 'test/a.test.ts').path).toBe(
      'test/a.test.ts',
    );
  });

  it('falls back to the CI layout when no suffix exists here, and says it did not map', () => {
    expect(mapPathOntoRoot('/home/runner/work/app/app/test/x.test.ts', '/r', () => false)).toEqual({
      path: 'test/x.test.ts',
      mapped: false,
    });
    expect(mapPathOntoRoot('/opt/else/x.test.ts', '/r', () => false)).toEqual({
      path: '/opt/else/x.test.ts',
      mapped: false,
    });
  });

  it('returns the longest suffix that exists under the root (property)', () => {
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 5 }),
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        fc.array(segment, { maxLength: 3 }),
        (foreign, rel, alsoExisting) => {
          const relPath = rel.join('/');
          const input = `/${[...foreign, ...rel].join('/')}`;
          // Some shorter suffixes may exist too (a file with the same name elsewhere): the longest wins.
          const existing = new Set([relPath, ...alsoExisting.map((s) => `${s}/${rel[rel.length - 1] ?? ''}`)]);
          const result = mapPathOntoRoot(input, '/local/root', (p) => existing.has(p));
          expect(result.mapped).toBe(true);
          expect(input.endsWith(`/${result.path}`)).toBe(true);
          expect(existing.has(result.path)).toBe(true);
          const segments = input.split('/').filter(Boolean);
          for (let i = 0; i < segments.length; i += 1) {
            const suffix = segments.slice(i).join('/');
            if (suffix.length > result.path.length) expect(existing.has(suffix)).toBe(false);
          }
        },
      ),
    );
  });
});
