/**
 * The shell every HTML report shares: one self-contained page (inline CSS, inline SVG, no script, a
 * Content-Security-Policy that forbids every network request) and the escaping every piece of data
 * goes through. Pure: strings in, a string out.
 */
import { PAGE_CSS } from './html-style.js';

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Text (or an attribute value in double quotes) as HTML: `& < > " '` become entities, and control
 * characters the HTML parser would reject (NUL, C0 except tab/newline/CR, DEL, C1) become U+FFFD.
 */
export function escapeHtml(text: string): string {
  return text
    .replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c)
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, '\uFFFD');
}

/** Escapes data for an element's text or a double-quoted attribute; markup is built only by the renderers. */
export const h = escapeHtml;

/** "4.90 s" from one second up (two decimals, so 4.90 of 5 reads as such), "212 ms" below. */
export function formatTime(ms: number): string {
  if (!Number.isFinite(ms)) return '-';
  return ms >= 999.5 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}

export function formatPercent(share: number | null): string {
  return share === null || !Number.isFinite(share) ? 'not measured' : `${Math.round(share * 100)}%`;
}

export const plural = (n: number, word: string, many = `${word}s`): string => `${n} ${n === 1 ? word : many}`;

export type Tone = 'good' | 'warn' | 'bad' | 'info' | 'muted' | 'accent';

export function badge(tone: Tone, text: string, title?: string): string {
  const t = title === undefined ? '' : ` title="${h(title)}"`;
  return `<span class="badge ${tone}"${t}>${h(text)}</span>`;
}

/** A tile with a big count and a label; zero counts are muted. */
export function countTile(tone: Tone, count: number, label: string): string {
  return `<div class="tile ${count === 0 ? 'muted' : tone}"><span class="count">${count}</span><span class="label">${h(label)}</span></div>`;
}

/** Evidence or an error as preformatted text, folded behind <details> when it is long. */
export function foldedPre(summary: string, lines: readonly string[], openBelow = { lines: 8, chars: 900 }): string {
  const text = lines.join('\n');
  const open = lines.length <= openBelow.lines && text.length <= openBelow.chars ? ' open' : '';
  return `<details class="pre"${open}><summary>${h(summary)} <span class="dim">(${plural(lines.length, 'line')})</span></summary><pre>${h(text)}</pre></details>`;
}

export interface PageInput {
  readonly title: string;
  /** Tone of the verdict: colours the top bar of the page. */
  readonly tone: Tone;
  /** Markup built by a renderer (every piece of data in it already escaped). */
  readonly body: string;
  /** The footer line (plain text). */
  readonly footer: string;
  /** Extra CSS for this page (static, never built from data). */
  readonly css?: string;
}

/** No network: the policy blocks every fetch (fonts, images, scripts); styles and data: images are inline. */
export const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

export function renderPage(page: PageInput): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${h(PAGE_CSP)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light">',
    `<title>${h(page.title)}</title>`,
    `<style>${PAGE_CSS}${page.css ?? ''}</style>`,
    '</head>',
    `<body class="${page.tone}">`,
    '<main>',
    page.body,
    `<footer>${h(page.footer)}</footer>`,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
