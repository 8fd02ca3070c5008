import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatOwners, hasOwner, ownersOfPath, parseCodeowners } from '../../../src/core/owners/codeowners.js';
import { compileCodeownersPattern, patternMatches } from '../../../src/core/owners/codeowners-pattern.js';

const matches = (pattern: string, path: string): boolean => {
  const compiled = compileCodeownersPattern(pattern);
  return compiled !== null && patternMatches(compiled, path);
};
const owners = (text: string, path: string): string[] => ownersOfPath(parseCodeowners(text, 'CODEOWNERS'), path);
const segment = fc.stringMatching(/^[a-z0-9_-]{1,8}$/);
const segments = fc.array(segment, { minLength: 1, maxLength: 4 });

describe('CODEOWNERS patterns (GitHub documentation examples)', () => {
  it.each([
    ['*', 'any/deep/file.ts', true],
    ['*.js', 'src/a/b.js', true],
    ['*.js', 'src/a/b.ts', false],
    ['/build/logs/', 'build/logs/x/y.log', true],
    ['/build/logs/', 'other/build/logs/y.log', false],
    ['/build/logs/', 'build/logs', false],
    ['docs/*', 'docs/getting-started.md', true],
    ['docs/*', 'docs/build-app/troubleshooting.md', false],
    ['apps/', 'deep/apps/x.ts', true],
    ['apps/', 'apps/x.ts', true],
    ['/docs/', 'docs/a/b.md', true],
    ['/docs/', 'src/docs/b.md', false],
    ['**/logs', 'deeply/nested/logs/a.log', true],
    ['**/logs', 'logs/a.log', true],
    ['src/**/test', 'src/a/b/test/x.ts', true],
    ['src/**/test', 'src/test/x.ts', true],
    ['test/unit', 'test/unit/a.test.ts', true],
    ['test/unit', 'x/test/unit/a.test.ts', false],
    ['a?c.ts', 'dir/abc.ts', true],
    ['a?c.ts', 'dir/a/c.ts', false],
    ['[ab].ts', '[ab].ts', true],
    ['[ab].ts', 'a.ts', false],
    ['\\#notes', '#notes', true],
  ])('%s on %s: %s', (pattern, path, expected) => {
    expect(matches(pattern, path)).toBe(expected);
  });

  it('a literal path owns itself and everything under it, anchored when it has a slash', () => {
    fc.assert(
      fc.property(segments, fc.array(segment, { maxLength: 3 }), (dir, below) => {
        const p = dir.join('/');
        const under = [p, ...below].join('/');
        expect(matches(`/${p}`, under)).toBe(true);
        expect(matches(p, under)).toBe(true);
        // 'Z' is outside the segment alphabet: the path is p one folder deeper.
        expect(matches(`/${p}`, `Z/${under}`)).toBe(false);
        expect(matches(p, `Z/${under}`)).toBe(dir.length === 1);
      }),
    );
  });

  it('a single * never crosses a slash; ** does', () => {
    fc.assert(
      fc.property(segment, segment, segments, (dir, file, deeper) => {
        expect(matches(`${dir}/*`, `${dir}/${file}`)).toBe(true);
        expect(matches(`/${dir}/*`, `${dir}/${deeper.join('/')}/${file}`)).toBe(false);
        expect(matches(`/${dir}/**`, `${dir}/${deeper.join('/')}/${file}`)).toBe(true);
      }),
    );
  });
});

describe('owners of a path', () => {
  it('the last matching pattern wins, and a pattern without owners leaves the path unowned', () => {
    const text = ['* @org/all', '/src/ @org/web', '/src/payments/ @org/pay @ana', '/src/payments/legacy'].join('\n');
    expect(owners(text, 'README.md')).toEqual(['@org/all']);
    expect(owners(text, 'src/a.test.ts')).toEqual(['@org/web']);
    expect(owners(text, 'src/payments/card.test.ts')).toEqual(['@org/pay', '@ana']);
    expect(owners(text, 'src/payments/legacy/old.test.ts')).toEqual([]);
  });

  it('whatever comes before, the last rule that matches decides (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('*', '/src/', 'src/*', '*.ts', '/lib/'), fc.constantFrom('@a', '@b', '@c')), {
          maxLength: 8,
        }),
        segment,
        (rules, last) => {
          const text = [...rules.map(([p, o]) => `${p} ${o}`), `/src/ @${last}`].join('\n');
          expect(owners(text, 'src/x.ts')).toEqual([`@${last}`]);
        },
      ),
    );
  });

  it('skips comments, inline comments and blank lines', () => {
    expect(owners('# owners\n\n*.ts @web # the web team\n', 'a.ts')).toEqual(['@web']);
  });

  it('GitLab: each section gives its last match, sections combine, an entry without owners takes the default', () => {
    const text = [
      '* @org/all',
      '[Backend][2] @org/backend',
      'src/',
      'src/api/ @dana',
      '^[Docs]',
      '*.md @org/docs',
      '[backend]',
      '/src/api/legacy/ @old',
    ].join('\n');
    expect(owners(text, 'src/api/a.test.ts')).toEqual(['@org/all', '@dana']);
    expect(owners(text, 'src/b.test.ts')).toEqual(['@org/all', '@org/backend']);
    expect(owners(text, 'src/api/legacy/x.test.ts')).toEqual(['@org/all', '@old']);
    expect(owners(text, 'README.md')).toEqual(['@org/all', '@org/docs']);
  });

  it('GitLab: an exclusion gives no owner in its section', () => {
    expect(owners('[Web] @web\nsrc/\n!src/generated/', 'src/generated/a.ts')).toEqual([]);
  });

  it('names each owner once, in the order of the sections (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('@a', '@B', '@b', 'x@y.z'), { minLength: 1, maxLength: 6 }), (list) => {
        const text = list.map((o, i) => `[S${i}]\n* ${o}`).join('\n');
        const got = owners(text, 'f.ts');
        expect(new Set(got.map((o) => o.toLowerCase())).size).toBe(got.length);
        expect(new Set(got.map((o) => o.toLowerCase()))).toEqual(new Set(list.map((o) => o.toLowerCase())));
      }),
    );
  });
});

describe('--owner', () => {
  it('matches with or without @, in any case', () => {
    expect(hasOwner(['@Org/Web'], 'org/web')).toBe(true);
    expect(hasOwner(['@org/web'], '@ORG/WEB')).toBe(true);
    expect(hasOwner(['dev@example.com'], 'DEV@example.com')).toBe(true);
    expect(hasOwner(['@org/web'], '@org/we')).toBe(false);
    expect(hasOwner([], '@org/web')).toBe(false);
  });

  it('prints nothing for a test without owners', () => {
    expect(formatOwners([])).toBe('');
    expect(formatOwners(undefined)).toBe('');
    expect(formatOwners(['@a', '@b'])).toBe('owners: @a @b');
  });
});
