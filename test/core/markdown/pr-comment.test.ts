import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildPrComment,
  FOLD_ABOVE,
  GITHUB_COMMENT_LIMIT,
  MAX_ITEM_CHARS,
  type PrComment,
} from '../../../src/core/markdown/pr-comment.js';

const items = (prefix: string, n: number, size = 20): string[] =>
  Array.from({ length: n }, (_, i) => `- ${prefix}-${i}:${'x'.repeat(size)}`);
const comment = (sections: PrComment['sections']): PrComment => ({
  marker: 'flakeguard:gate',
  headline: ['**flakeguard gate failed**', '', 'Fix first: a.test.ts > t'],
  sections,
});
const omittedOf = (text: string): number[] =>
  [...text.matchAll(/… and (\d+) more not shown/g)].map((m) => Number(m[1]));

describe('buildPrComment', () => {
  it('starts with the hidden marker and keeps a short section open, every item shown', () => {
    const text = buildPrComment(comment([{ title: 'Failing', items: items('f', 3) }]));
    expect(text.split('\n')[0]).toBe('<!-- flakeguard:gate -->');
    expect(text).toContain('#### Failing');
    expect(text).not.toContain('<details>');
    expect(omittedOf(text)).toEqual([]);
    for (const item of items('f', 3)) expect(text).toContain(item);
  });

  it('folds a section longer than the fold size, with its count in the summary', () => {
    const text = buildPrComment(comment([{ title: 'Stable', items: items('s', FOLD_ABOVE + 1) }]));
    expect(text).toContain(`<details>\n<summary>Stable (${FOLD_ABOVE + 1})</summary>`);
  });

  it('with 500 tests of long lines: under the limit, the first section first, and a count of what was left out', () => {
    const sections = [
      { title: 'Failing', items: items('fail', 500, 300) },
      { title: 'Stable', items: items('ok', 500, 100) },
    ];
    const text = buildPrComment(comment(sections));
    expect(text.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    const shownFail = items('fail', 500, 300).filter((i) => text.includes(`${i}\n`)).length;
    const shownOk = items('ok', 500, 100).filter((i) => text.includes(`${i}\n`)).length;
    const [leftFail = 0, leftOk = 0] = omittedOf(text);
    expect(shownFail).toBeGreaterThan(100);
    expect(shownFail + leftFail).toBe(500);
    expect(shownOk + leftOk).toBe(500);
    expect(text).toContain('<summary>Stable (500)</summary>');
  });

  it('cuts one huge item instead of dropping the section', () => {
    const text = buildPrComment(comment([{ title: 'Failing', items: [`- ${'e'.repeat(100_000)}`] }]));
    expect(text.length).toBeLessThan(MAX_ITEM_CHARS + 500);
    expect(text).toContain('…');
  });

  it('never goes over the limit, and every item is either shown or counted (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 400 })), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.integer({ min: 2_000, max: 20_000 }),
        (shape, limit) => {
          const sections = shape.map(([n, size], s) => ({
            title: `S${s}`,
            head: ['| a | b |', '|---|---|'],
            items: items(`s${s}`, n, size),
          }));
          const text = buildPrComment(comment(sections), limit);
          expect(text.length).toBeLessThanOrEqual(limit);
          expect(text.startsWith('<!-- flakeguard:gate -->\n')).toBe(true);
          const left = omittedOf(text);
          const shown = sections.map((s) => s.items.filter((i) => text.includes(`${i}\n`)).length);
          const total = sections.reduce((n, s) => n + s.items.length, 0);
          expect(shown.reduce((a, b) => a + b, 0) + left.reduce((a, b) => a + b, 0)).toBe(total);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('a folded last section that only just fits is never cut mid-item (found by the property above)', () => {
    const sections = [
      [38, 102],
      [36, 63],
      [33, 102],
    ].map(([n = 0, size = 0], s) => ({
      title: `S${s}`,
      head: ['| a | b |', '|---|---|'],
      items: items(`s${s}`, n, size),
    }));
    const whole = buildPrComment(comment(sections), 1_000_000).length;
    for (const limit of [whole - 33, whole - 1, whole]) {
      const text = buildPrComment(comment(sections), limit);
      expect(text.length).toBeLessThanOrEqual(limit);
      expect(text).not.toContain('(cut at the comment limit)');
    }
  });

  it('cuts a headline longer than the limit and says so', () => {
    const text = buildPrComment({ marker: 'flakeguard:triage', headline: ['h'.repeat(5_000)], sections: [] }, 1_000);
    expect(text.length).toBeLessThanOrEqual(1_000);
    expect(text).toContain('(cut at the comment limit)');
  });
});
