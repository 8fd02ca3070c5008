/**
 * Short, escaped excerpts of input that a message echoes: at most `max` characters once escaped,
 * with control and non-printable characters escaped, and the full length when it was cut. Binary garbage or a 4 KB
 * line in a file never reaches the terminal whole.
 */
export const EXCERPT_MAX = 60;
/**
 * The longest name from outside (a CPU model, a CI workflow or job name) that a line of text shows
 * whole; a longer one is cut there with `… (N characters)`. A URL from outside (a CI run's page): URL_MAX.
 */
export const NAME_MAX = 100;
export const URL_MAX = 200;

import { escapeTerminal } from './untrusted-text.js';

const escapeText = (text: string): string => escapeTerminal(text.replace(/\u00ad/g, '\\u00ad'));

/**
 * The first characters of `text` whose escaped form (`width` of each) takes at most `max`
 * characters: a control character escapes to six (`\u0004`), so 60 of them would print 360, and a
 * line of binary garbage overran the 400-character message it sits in.
 */
function cut(
  text: string,
  max: number,
  width: (ch: string) => number = (ch) => escapeText(ch).length,
): { shown: string; length: number; cut: boolean } {
  const chars = [...text];
  let used = 0;
  let kept = 0;
  for (const ch of chars) {
    used += width(ch);
    if (used > max) break;
    kept += 1;
  }
  return { shown: chars.slice(0, kept).join(''), length: chars.length, cut: kept < chars.length };
}

/** A character's width inside a quoted excerpt: a backslash or a quote doubles, then the terminal escape. */
const quotedWidth = (ch: string): number => (ch === '\\' || ch === '"' ? 2 : escapeText(ch).length);

/** `text` escaped and cut to `max` characters: `abc… (4000 characters)`. */
export function clipText(text: string, max: number = EXCERPT_MAX): string {
  const c = cut(text, max);
  return c.cut ? `${escapeText(c.shown)}… (${c.length} characters)` : escapeText(c.shown);
}

/** A value as a message quotes it: a string in double quotes (escaped, cut); a number or boolean as is. */
export function excerpt(value: unknown, max: number = EXCERPT_MAX): string {
  // A list or map is described, not serialised: through YAML aliases it may expand to millions of nodes.
  if (Array.isArray(value)) return `a list of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (value !== null && typeof value === 'object') return 'a map';
  if (typeof value !== 'string') return clipText(String(value), max);
  const c = cut(value, max, quotedWidth);
  const quoted = `"${escapeText(c.shown.replace(/\\/g, '\\\\').replace(/"/g, '\\"'))}${c.cut ? '…' : ''}"`;
  return c.cut ? `${quoted} (${c.length} characters)` : quoted;
}
