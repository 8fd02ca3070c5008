/**
 * The reproduce command printed for a shell: the test chosen by its place (`<file>:<line>`, Vitest's
 * own filter), never by a name pattern (regex characters in a name break `-t`), and quoted (the
 * budget report's shellQuote) so that pasting it runs exactly that: nothing in a file name is expanded.
 */
import { shellQuote } from '../budget/budget-text.js';

export function reproduceCommand(file: string | null, line: number | null): string {
  if (file === null) return 'npx vitest run';
  return `npx vitest run ${shellQuote(line === null ? file : `${file}:${line}`)}`;
}
