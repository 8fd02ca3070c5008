/**
 * Text flakeguard did not write (test names, file names, error messages, notices that quote them),
 * in a Markdown comment GitHub renders: shown as written, but GitHub makes nothing of it. No
 * `@mention` (it would notify that user or team, and bots take commands by mention), no `#12` or
 * `GH-12` reference, no autolink (`https://`, `www.`, an e-mail address), no `[link](…)` or image,
 * no HTML; `|` kept inside a table cell. A zero-width space (`&#8203;`, the way Renovate writes
 * untrusted text into comments) goes after the character that would start one, so the source holds
 * no `@name` either and a bot reading it sees no command. CODEOWNERS owners are not this text: they
 * stay mentions on purpose, written by the callers as they are. One line (escapeTerminal). Pure.
 */
import { escapeTerminal } from '../untrusted-text.js';

const ZWSP = '&#8203;';

/** What would start a mention, a reference or an autolink; the zero-width space goes inside it. */
const STARTS = /@(?=[\w-])|#(?=\d)|\bGH-(?=\d)|:\/\/|\bwww\./gi;

function breakStart(start: string): string {
  if (start.length === 1) return `${start}${ZWSP}`;
  // `GH-`, `://`, `www.`: before their last character (or the `//`).
  const cut = start === '://' ? 1 : start.length - 1;
  return `${start.slice(0, cut)}${ZWSP}${start.slice(cut)}`;
}

export function inertMarkdown(text: string): string {
  return (
    escapeTerminal(text)
      // First: an entity the user wrote (`&#64;`) must not decode to what is broken below.
      .replace(/&/g, '&amp;')
      // `<` starts HTML; `>` only quotes at a line's start, and a test name's ` > ` stays as written.
      .replace(/</g, '&lt;')
      .replace(/\|/g, '\\|')
      .replace(/[[\]]/g, '\\$&')
      // One pass: the entities it adds are not matched again.
      .replace(STARTS, breakStart)
  );
}

/**
 * Text inside a code span (`` `file:line` ``): GitHub makes no mention or link there and shows
 * entities as written, so only what would end the span or the table cell is changed.
 */
export function inertCode(text: string): string {
  return escapeTerminal(text).replace(/`/g, "'").replace(/\|/g, '\\|');
}
