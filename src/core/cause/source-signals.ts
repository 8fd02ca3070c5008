/**
 * Supporting signals in a test's own source, parsed and never executed (issue 28 part 2): lines
 * that show a likely cause of flakiness. Each is a SourceSignal (core/cause/cause.ts): evidence and
 * the fix's line, never a class on its own. Precision over recall: a signal only where the syntax
 * shows it plainly (the rules are in source-signal-rules.ts). Pure.
 */
import { createLineIndex } from '../source/source-position.js';
import { parseTestSource } from '../source/test-source-syntax.js';
import type { SourceSignal } from './cause.js';
import { fileFacts } from './source-file-facts.js';
import { bodyRules, type SignalKind } from './source-signal-rules.js';

export type { SignalKind } from './source-signal-rules.js';

const PRIORITY: readonly SignalKind[] = [
  'sleep',
  'elapsed',
  'unawaited',
  'random',
  'module-state',
  'network',
  'wall-clock',
];

/**
 * The signals in one test: `code` is its file's text, `body` the offsets of its body (SourceTest's
 * bodyStart/bodyEnd, core/source/test-source.ts). Strongest kind first, then by line; at most one
 * signal of a kind per line. Throws FlakeguardError INPUT_UNREADABLE when the file does not parse.
 */
export function findSourceSignals(
  code: string,
  file: string,
  body: { readonly bodyStart: number; readonly bodyEnd: number },
): SourceSignal[] {
  const program = parseTestSource(code, file);
  const position = createLineIndex(code);
  const index = (offset: number): number => position(offset).line;
  const found = bodyRules(program, fileFacts(program, index), body, index, code);
  const seen = new Set<string>();
  const unique = found.filter((s) => {
    const key = `${s.kind}:${s.line}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  unique.sort((a, b) => PRIORITY.indexOf(a.kind) - PRIORITY.indexOf(b.kind) || a.line - b.line);
  return unique.map(({ kind: _kind, ...signal }) => signal);
}
