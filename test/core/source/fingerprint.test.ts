import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashText } from '../../../src/core/source/fingerprint.js';
import { extractTests } from '../../../src/core/source/test-source.js';

type Token = { readonly kind: 'id' | 'num' | 'str' | 'punct'; readonly text: string };

const id = fc.stringMatching(/^[a-z][a-z0-9]{0,5}$/).map((s): Token => ({ kind: 'id', text: `id_${s}` }));
const num = fc.nat({ max: 100_000 }).map((n): Token => ({ kind: 'num', text: String(n) }));
const str = fc.stringMatching(/^[a-z ]{0,8}$/).map((s): Token => ({ kind: 'str', text: s }));
const lit = fc.oneof(num, str);
const p = (text: string): Token => ({ kind: 'punct', text });

const statement = fc.oneof(
  fc.tuple(id, lit).map(([i, l]) => [i, p('='), l, p(';')]),
  fc.tuple(id, lit).map(([i, l]) => [p('expect'), p('('), i, p(')'), p('.'), p('toBe'), p('('), l, p(')'), p(';')]),
  fc.tuple(lit, id).map(([l, i]) => [p('await'), p('run'), p('('), l, p(','), i, p(')'), p(';')]),
);
const body = fc.array(statement, { minLength: 1, maxLength: 6 }).map((s) => s.flat());
const separator = fc.constantFrom(' ', '\n', '\t', '   ', ' /* note */ ', ' // note\n', '\n\n  ');

function render(tokens: readonly Token[], seps: readonly string[], quote: string): string {
  const parts = tokens.map((t, i) => {
    const text = t.kind === 'str' ? `${quote}${t.text}${quote}` : t.text;
    return `${text}${seps[i % seps.length] ?? ' '}`;
  });
  return `it('title', async () => {\n${parts.join('')}\n});\n`;
}

function fingerprintOf(code: string): string {
  const [test] = extractTests(code, 'p.test.ts');
  if (!test) throw new Error('no test found');
  return test.fingerprint;
}

describe('fingerprint', () => {
  it('ignores whitespace, comments and quote style', () => {
    fc.assert(
      fc.property(
        body,
        fc.array(separator, { minLength: 1, maxLength: 8 }),
        fc.constantFrom("'", '"'),
        (tokens, seps, quote) => {
          expect(fingerprintOf(render(tokens, seps, quote))).toBe(fingerprintOf(render(tokens, [' '], "'")));
        },
      ),
    );
  });

  it('changes with any literal or identifier', () => {
    const withIndex = body.chain((tokens) => {
      const candidates = tokens.flatMap((t, i) => (t.kind === 'punct' ? [] : [i]));
      return fc.tuple(fc.constant(tokens), fc.constantFrom(...candidates));
    });
    fc.assert(
      fc.property(withIndex, ([tokens, index]) => {
        const changed = tokens.map((t, i): Token => {
          if (i !== index) return t;
          if (t.kind === 'num') return { kind: 'num', text: String(Number(t.text) + 1) };
          return { ...t, text: `${t.text}z` };
        });
        expect(fingerprintOf(render(changed, [' '], "'"))).not.toBe(fingerprintOf(render(tokens, [' '], "'")));
      }),
    );
  });

  it('changes with an operator or a statement order', () => {
    expect(fingerprintOf(`it('t', () => { a = b + c; });`)).not.toBe(fingerprintOf(`it('t', () => { a = b - c; });`));
    expect(fingerprintOf(`it('t', () => { a(); b(); });`)).not.toBe(fingerprintOf(`it('t', () => { b(); a(); });`));
    expect(fingerprintOf(`it('t', () => { a(1e3); });`)).toBe(fingerprintOf(`it('t', () => { a(1000); });`));
    expect(fingerprintOf('it(`t`, () => { a(`x`); });')).toBe(fingerprintOf(`it('t', () => { a('x'); });`));
  });

  it('hashText is 16 hex digits and splits pieces', () => {
    expect(hashText('')).toMatch(/^[0-9a-f]{16}$/);
    expect(hashText('ab')).not.toBe(hashText('ba'));
  });
});
