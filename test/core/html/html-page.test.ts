import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml, foldedPre, formatTime, PAGE_CSP, renderPage } from '../../../src/core/html/html-page.js';
import { markupSkeleton } from './html-markup.js';

const decode = (html: string): string =>
  html
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

describe('escapeHtml', () => {
  it('escapes the five markup characters', () => {
    expect(escapeHtml(`<script>alert("x" & 'y')</script>`)).toBe(
      '&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;',
    );
  });

  it('keeps tab, newline and CR, and replaces the control characters HTML rejects', () => {
    expect(escapeHtml('a\tb\nc\rd\u0000e\u0007f\u001bg\u007fh\u0085i')).toBe(
      'a\tb\nc\rd\uFFFDe\uFFFDf\uFFFDg\uFFFDh\uFFFDi',
    );
  });

  it('property: the output has no markup character and round-trips (controls aside)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const out = escapeHtml(text);
        expect(out).not.toMatch(/[<>"']/);
        expect(out).not.toMatch(/&(?!(?:amp|lt|gt|quot|#39);)/);
        const controls = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
        expect(decode(out)).toBe(text.replace(controls, '\uFFFD'));
      }),
      { numRuns: 500 },
    );
  });
});

describe('formatTime', () => {
  it('speaks in seconds with two decimals from one second, milliseconds below', () => {
    expect(formatTime(4900)).toBe('4.90 s');
    expect(formatTime(5000)).toBe('5.00 s');
    expect(formatTime(12_000)).toBe('12.00 s');
    expect(formatTime(999.6)).toBe('1.00 s');
    expect(formatTime(212.4)).toBe('212 ms');
    expect(formatTime(Number.NaN)).toBe('-');
  });
});

describe('foldedPre', () => {
  it('shows short evidence open and folds long evidence behind a closed <details>', () => {
    expect(foldedPre('Evidence', ['one', 'two'])).toContain('<details class="pre" open>');
    const long = foldedPre(
      'Evidence',
      Array.from({ length: 30 }, (_, i) => `line ${i}`),
    );
    expect(long).toContain('<details class="pre"><summary>');
    expect(long).toContain('(30 lines)');
    expect(foldedPre('Evidence', ['x'.repeat(2000)])).not.toContain(' open>');
  });

  it('escapes every line', () => {
    expect(foldedPre('E', ['<img src=x onerror=alert(1)>'])).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});

describe('renderPage', () => {
  const page = renderPage({ title: 'a <title> & "more"', tone: 'bad', body: '<p>x</p>', footer: 'foot <er>' });

  it('is one well-formed page with a policy that forbids every network request', () => {
    expect(page.startsWith('<!DOCTYPE html>\n<html lang="en">')).toBe(true);
    expect(page).toContain(`<meta http-equiv="Content-Security-Policy" content="${escapeHtml(PAGE_CSP)}">`);
    expect(PAGE_CSP).toContain("default-src 'none'");
    expect(PAGE_CSP).not.toMatch(/script-src|https?:/);
    expect(page).not.toMatch(/<script|\ssrc=|\shref=|<link|@import|url\(http/i);
    expect(() => markupSkeleton(page)).not.toThrow();
  });

  it('escapes the title and the footer', () => {
    expect(page).toContain('<title>a &lt;title&gt; &amp; &quot;more&quot;</title>');
    expect(page).toContain('<footer>foot &lt;er&gt;</footer>');
  });
});
