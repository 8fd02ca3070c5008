/**
 * The cause of a Vitest run that stopped before running anything (a broken vitest.config.ts, a
 * missing package, a bad reporter), from what Vitest printed: ANSI codes, rules and stack frames
 * removed, the error lines kept (with what Vitest said just before them), at most `maxLines` lines.
 */
import { clipText } from './excerpt.js';
import { stripAnsi } from './triage/log-matcher.js';

// Stack frames, Node's source pointer, and the code frames Vite/Rolldown draw with box characters.
const FRAME = /^\s*at\s|^\s*\.\.\. \d+ more|^node:internal|^\s*\^+\s*$|^Node\.js v\d|^\s*\d*\s*[│╭╰├┬┆]/;
const RULE = /^[\s⎯─━═╯╮╰╭│-]*$/;
const CAUSE =
  /\b(?:[A-Z]\w*Error|Error)\b|failed to load|Startup Error|Cannot find|Could not resolve|\[(?:PARSE|UNRESOLVED)_\w+\]/;

export function vitestStartupCause(output: string, maxLines = 8): string {
  const lines = stripAnsi(output)
    .split('\n')
    .map((l) => l.replace(/\s+$/, ''))
    .filter((l) => !FRAME.test(l) && !RULE.test(l));
  const first = lines.findIndex((l) => CAUSE.test(l));
  const kept = first === -1 ? lines.slice(-maxLines) : lines.slice(first, first + maxLines);
  return kept.map((l) => (l.length > 300 ? `${l.slice(0, 300)}…` : l)).join('\n');
}

/** The longest cause `startErrorLine` gives, before its `… (N characters)` marker. */
export const START_ERROR_MAX = 200;
// The place Rolldown and Vite put in the code frame's header: `╭─[ vitest.config.ts:2:69 ]`.
const PLACE = /\[\s*([^\s\]]+:\d+:\d+)\s*\]/;

/**
 * The error Vitest threw when it could not start (createVitest), as one line for a message: colour
 * codes, code frames, rules and stack frames removed, the lines joined, the place of a code frame's
 * header first (`vitest.config.ts:2:69: Build failed with 1 error: [PARSE_ERROR] Expected ...`),
 * escaped and cut to `max` characters with the full length after the cut.
 */
export function startErrorLine(message: string, max: number = START_ERROR_MAX): string {
  const text = stripAnsi(message);
  const place = PLACE.exec(text)?.[1];
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !FRAME.test(l) && !RULE.test(l))
    .join(' ')
    .replace(/\s+/g, ' ')
    .replace(/\.$/, '');
  const placed = place !== undefined && !line.includes(place) ? `${place}: ${line}` : line;
  return clipText(placed === '' ? 'no message' : placed, max);
}
