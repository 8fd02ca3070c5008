/**
 * Compiles log signatures (plus Vitest's own markers) into one matcher that is fast on logs of
 * hundreds of MB: a single combined expression of literals (the signatures' texts, or the needles
 * of a regex signature) that the scanner runs over raw bytes read as latin1 (one char per byte, so a
 * match index is a byte offset), and an exact per-line identification that runs only on the lines
 * the combined expression hit. Non-ASCII text in a signature is matched as
 * its UTF-8 bytes; a non-ASCII character inside a regex character class is not supported.
 */
import type { LogSignature } from './triage-signatures.js';

export interface LogMarker {
  readonly id: string;
  readonly match: string;
  /** What the fast search looks for (a part of `match`). */
  readonly needle: string;
  /** How many following non-empty lines to keep with a hit. */
  readonly after: number;
}

/** Vitest's default reporter writes these; the scanner keeps them as events for log-vitest.ts. */
const VITEST_MARKERS: readonly LogMarker[] = [
  { id: 'vitest:fail', match: ' FAIL ', needle: ' FAIL ', after: 3 },
  { id: 'vitest:unhandled', match: ' Unhandled ', needle: ' Unhandled ', after: 2 },
  { id: 'vitest:origin', match: 'This error originated in ', needle: 'This error originated in ', after: 0 },
  { id: 'vitest:latest', match: 'The latest test that might', needle: 'The latest test that might', after: 0 },
  // Vitest 5 words the same line `The last test to run before this error was "t".`
  {
    id: 'vitest:latest',
    match: 'The last test to run before this error',
    needle: 'The last test to run before',
    after: 0,
  },
  // Vitest 5 adds the signal and the file to it: `... with signal SIGKILL during started state while running test file /abs/a.test.ts`.
  { id: 'vitest:worker-exit', match: 'Worker exited unexpectedly', needle: 'Worker exited unexpectedly', after: 0 },
  // The summary (` Test Files  2 passed (2)`): the log shows a run that finished.
  { id: 'vitest:summary', match: 'Test Files ', needle: 'Test Files ', after: 1 },
];

export interface CompiledLogMatcher {
  /** Source of one expression over latin1-decoded bytes (flags `gm`) that finds every candidate line. */
  readonly byteSource: string;
  /** The literal part of the search as UTF-8 bytes (for the fast multi-literal search). */
  readonly needles: readonly Uint8Array[];
  /** Regexes without needles, as one expression over latin1-decoded bytes, or null when none. */
  readonly fallbackSource: string | null;
  /** Ids that hit this (decoded, UTF-8) line: at most one marker and at most one signature. */
  identify(line: string): readonly string[];
  /** Lines of context to keep after a hit with this id. */
  afterLines(id: string): number;
  /** Events of one id kept at most (hits beyond are only counted). */
  keepLimit(id: string): number;
}

const ESCAPE = /[.*+?^${}()|[\]\\/]/g;

export function escapeRegExp(text: string): string {
  return text.replace(ESCAPE, '\\$&');
}

/** Rewrites a (UTF-16) pattern so that it matches the UTF-8 bytes of the text read as latin1. */
export function toByteSource(source: string): string {
  let out = '';
  for (const ch of source) {
    const code = ch.codePointAt(0) ?? 0;
    if (code < 0x80) {
      out += ch;
      continue;
    }
    const bytes = new TextEncoder().encode(ch);
    out += `(?:${Array.from(bytes, (b) => `\\x${b.toString(16).padStart(2, '0')}`).join('')})`;
  }
  return out;
}

interface LineTest {
  readonly id: string;
  readonly test: (line: string) => boolean;
}

function lineTest(sig: { id: string; match: string; regex?: boolean }): LineTest {
  if (sig.regex === true) {
    const re = new RegExp(sig.match, 'm');
    return { id: sig.id, test: (line) => re.test(line) };
  }
  return { id: sig.id, test: (line) => line.includes(sig.match) };
}

export function compileLogMatcher(
  signatures: readonly LogSignature[],
  markers: readonly LogMarker[] = VITEST_MARKERS,
): CompiledLogMatcher {
  // The fast search: literals (a signature's own text, or the needles of a regex), and the regex
  // itself only for a regex without needles. The exact test runs per hit line in identify().
  const needle = (s: LogSignature): string[] => {
    if (s.regex !== true) return [escapeRegExp(s.match)];
    if (s.needles && s.needles.length > 0) return s.needles.map(escapeRegExp);
    return [`(?:${s.match})`];
  };
  const parts = [...new Set([...markers.map((m) => escapeRegExp(m.needle)), ...signatures.flatMap(needle)])];
  const byteSource = parts.map(toByteSource).join('|');
  new RegExp(byteSource, 'gm'); // throws here, with the bad pattern in the message, rather than in the scanner
  const encoder = new TextEncoder();
  const literals = [
    ...new Set([
      ...markers.map((m) => m.needle),
      ...signatures.flatMap((s) => (s.regex !== true ? [s.match] : (s.needles ?? []))),
    ]),
  ];
  const regexOnly = signatures.filter((s) => s.regex === true && (s.needles?.length ?? 0) === 0);
  // One-byte literals cannot go into the 2-byte-block search: they join the fallback expression.
  const short = literals.filter((l) => encoder.encode(l).length < 2);
  const fallbackParts = [...regexOnly.map((s) => `(?:${s.match})`), ...short.map(escapeRegExp)].map(toByteSource);
  const markerTests = markers.map(lineTest);
  const signatureTests = signatures.map(lineTest);
  const after = new Map(markers.map((m) => [m.id, m.after]));
  const markerIds = new Set(markers.map((m) => m.id));
  return {
    byteSource,
    needles: literals.filter((l) => !short.includes(l)).map((l) => encoder.encode(l)),
    fallbackSource: fallbackParts.length > 0 ? fallbackParts.join('|') : null,
    identify(line) {
      const ids: string[] = [];
      const marker = markerTests.find((t) => t.test(line));
      if (marker) ids.push(marker.id);
      const signature = signatureTests.find((t) => t.test(line));
      if (signature) ids.push(signature.id);
      return ids;
    },
    afterLines: (id) => after.get(id) ?? 0,
    keepLimit: (id) => (markerIds.has(id) ? 20_000 : 50),
  };
}

const ANSI = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007/g;

export function stripAnsi(text: string): string {
  return text.includes('\u001b') ? text.replace(ANSI, '') : text;
}
