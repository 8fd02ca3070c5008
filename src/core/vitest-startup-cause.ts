/**
 * The cause of a Vitest run that stopped before running anything (a broken vitest.config.ts, a
 * missing package, a bad reporter), from what Vitest printed: ANSI codes, rules and stack frames
 * removed, the error lines kept (with what Vitest said just before them), at most `maxLines` lines.
 */
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
