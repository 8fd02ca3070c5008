import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entryBlocks } from '../../../src/core/allowances/allowance-blocks.js';
import { insertEntry, removeEntries, updateEntry } from '../../../src/core/allowances/allowance-edit.js';
import { parseAllowanceFile } from '../../../src/core/allowances/allowance-parse.js';
import { serializeEntry } from '../../../src/core/allowances/allowance-serialize.js';
import { entry, W } from './allowance-factories.js';

describe('allowance file edits', () => {
  it('serialises an entry that parses back', () => {
    const text = serializeEntry(
      entry('a1b2c3d4', 'g > t: "quoted" #1', {
        fingerprint: '0123456789abcdef',
        budget: { kind: 'map', values: { linux: 9000, default: 1500 } },
        expires: '2027-01-01',
      }),
    );
    expect(text).toBe(`- id: a1b2c3d4
  test: 'g > t: "quoted" #1'
  file: x.test.ts
  fingerprint: 0123456789abcdef
  budget: { linux: 9s, default: 1.5s }
  reason: slow disk
  added: 2026-11-30
  expires: 2027-01-01
`);
    expect(parseAllowanceFile(text, W).allowances[0]).toMatchObject({
      fullName: 'g > t: "quoted" #1',
      budget: { kind: 'map', values: { linux: 9000, default: 1500 } },
    });
  });

  it('inserts in sorted place, into an empty file, a comment-only file and []', () => {
    const one = insertEntry('', entry('b0000001', 'b'), W);
    const two = insertEntry(one, entry('a0000001', 'a'), W);
    const three = insertEntry(two, entry('c0000001', 'c'), W);
    expect(parseAllowanceFile(three, W).allowances.map((a) => a.fullName)).toEqual(['a', 'b', 'c']);
    expect(insertEntry('# header\n', entry('a0000001', 'a'), W)).toBe(
      `# header\n${serializeEntry(entry('a0000001', 'a'))}`,
    );
    expect(insertEntry('# header\n[]\n', entry('a0000001', 'a'), W)).toBe(
      `# header\n\n${serializeEntry(entry('a0000001', 'a'))}`,
    );
  });

  it('removes an entry with the comment directly above it, keeps the header', () => {
    const text = `# header\n${serializeEntry(entry('a0000001', 'a'))}\n# about b\n${serializeEntry(entry('b0000001', 'b'))}`;
    expect(removeEntries(text, new Set(['b0000001']), W)).toBe(`# header\n${serializeEntry(entry('a0000001', 'a'))}\n`);
    expect(removeEntries(text, new Set(['a0000001']), W)).toBe(
      `# header\n\n# about b\n${serializeEntry(entry('b0000001', 'b'))}`,
    );
  });

  it('updates values in place and adds a missing fingerprint', () => {
    const text = `- id: a0000001   # keep me\n  test:   "old"   # and me\n  file: x.test.ts\n  budget: 2s\n  reason: r\n  added: 2026-11-30\n`;
    expect(updateEntry(text, 'a0000001', { test: 'new', fingerprint: '0123456789abcdef' }, W)).toBe(
      `- id: a0000001   # keep me\n  test:   new   # and me\n  file: x.test.ts\n  budget: 2s\n  reason: r\n  added: 2026-11-30\n  fingerprint: 0123456789abcdef\n`,
    );
  });
});

describe('allowance file edit properties', () => {
  const names = fc.constantFrom('alpha', 'beta', 'gamma > one', 'gamma > two', 'delta: "x"', 'zeta');
  const comment = fc.stringMatching(/^[a-z ]{1,10}$/).map((s) => `# ${s}`);
  const spec = fc.record({
    test: names,
    above: fc.array(comment, { maxLength: 2 }),
    inline: fc.option(comment, { nil: null }),
    blankBefore: fc.boolean(),
  });
  const file = fc.uniqueArray(spec, { minLength: 1, maxLength: 6, selector: (s) => s.test }).map((specs) => {
    const sorted = [...specs]
      .sort((a, b) => (a.test < b.test ? -1 : 1))
      .map((s, i) => ({ ...s, id: `a${String(i).padStart(7, '0')}` }));
    const blocks = sorted.map((s) => {
      const body = serializeEntry(entry(s.id, s.test)).replace(
        '  reason: slow disk',
        `  reason: slow disk${s.inline ? ` ${s.inline}` : ''}`,
      );
      return {
        id: s.id,
        test: s.test,
        text: `${s.above.map((c) => `${c}\n`).join('')}${body}`,
        sep: s.blankBefore ? '\n' : '',
      };
    });
    const text = `# header comment\n\n${blocks.map((b) => b.sep + b.text).join('')}`;
    return { text, blocks };
  });
  const op = fc.oneof(
    fc.record({ kind: fc.constant('insert' as const), test: names }),
    fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
    fc.record({ kind: fc.constant('update' as const), pick: fc.nat(), test: names }),
  );

  it('keeps the header, the comments and every untouched entry byte for byte, in sorted order', () => {
    fc.assert(
      fc.property(file, op, ({ text, blocks }, o) => {
        let out: string;
        let touched: string | null = null;
        let expectedIds = blocks.map((b) => b.id);
        if (o.kind === 'insert') {
          out = insertEntry(text, entry('ffffffff', o.test), W);
          expectedIds = [...expectedIds, 'ffffffff'];
        } else {
          const target = blocks[o.pick % blocks.length];
          if (!target) return;
          touched = target.id;
          if (o.kind === 'remove') {
            out = removeEntries(text, new Set([target.id]), W);
            expectedIds = expectedIds.filter((id) => id !== target.id);
          } else {
            out = updateEntry(text, target.id, { test: o.test }, W);
          }
        }
        expect(out.startsWith('# header comment\n')).toBe(true);
        for (const b of blocks) if (b.id !== touched) expect(out).toContain(b.text);
        const parsed = parseAllowanceFile(out, W);
        expect(parsed.problems).toEqual([]);
        expect(parsed.allowances.map((a) => a.id).sort()).toEqual([...expectedIds].sort());
        const order = entryBlocks(out, W).map((b) => [b.fullName, b.id].join('\u0000'));
        expect(order).toEqual([...order].sort());
      }),
    );
  });
});
