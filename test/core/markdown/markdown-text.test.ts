import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inertCode, inertMarkdown } from '../../../src/core/markdown/markdown-text.js';

/** What GitHub would make something of in a comment's source: a mention, a reference, an autolink, a link, HTML. */
const LIVE = [
  /@[\w-]/, // @octocat, @org/team
  /#\d/, // #12, owner/repo#12
  /\bGH-\d/i,
  /:\/\//, // https://…
  /\bwww\./i,
  /(?<!\\)\[/, // [text](url), ![image](url)
  /</, // <img>, <a>, <!-- -->
  /&(?!amp;|lt;|#8203;)/, // an entity the user wrote: &#64;octocat would decode to @octocat
];

describe('inertMarkdown: user text GitHub makes nothing of', () => {
  it.each([
    ['checkout > pings @octocat', 'checkout > pings @&#8203;octocat'],
    ['see #12 and org/repo#7 and GH-3', 'see #&#8203;12 and org/repo#&#8203;7 and GH&#8203;-3'],
    ['open https://evil.example or www.evil.example', 'open https:&#8203;//evil.example or www&#8203;.evil.example'],
    ['[click](https://x) ![i](y)', '\\[click\\](https:&#8203;//x) !\\[i\\](y)'],
    ['<img src=x> a | b', '&lt;img src=x> a \\| b'],
    ['&#64;octocat', '&amp;#&#8203;64;octocat'],
    ['mail ci@example.com', 'mail ci@&#8203;example.com'],
    ['line\nbreak', 'line\\nbreak'],
  ])('%s', (text, shown) => {
    expect(inertMarkdown(text)).toBe(shown);
  });

  it('property: nothing live is left, whatever the text', () => {
    const piece = fc.constantFrom(
      '@',
      '#',
      '1',
      'GH-',
      '://',
      'www.',
      '[',
      ']',
      '(',
      '<',
      '>',
      '&',
      '|',
      'a',
      ' ',
      '`',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(piece, fc.string({ maxLength: 4 })), { maxLength: 12 }), (parts) => {
        const out = inertMarkdown(parts.join('')).replaceAll('&#8203;', '\u200b');
        for (const live of LIVE) expect(out).not.toMatch(live);
      }),
      { numRuns: 500 },
    );
  });

  it('inertCode keeps a code span and its table cell closed, and the text as written', () => {
    expect(inertCode('test/@scope/a`b|c.test.ts')).toBe("test/@scope/a'b\\|c.test.ts");
  });
});
