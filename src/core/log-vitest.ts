/**
 * Reads what Vitest's default reporter printed, from the events the log scanner kept: failed tests
 * and suites (` FAIL  a.test.ts > grp > name` followed by the error) and unhandled errors
 * (`⎯ Unhandled Rejection ⎯`, the error, `This error originated in "<file>" test file`). These are
 * the only trace of timeouts' messages, beforeAll errors and unhandled rejections when the JSON
 * report is all a team has.
 */
import { stripAnsi } from './log-matcher.js';
import type { LogEvent, LogScan, ObservedTest, ObservedUnhandled } from './triage-types.js';

export interface LogFailure {
  readonly file: string;
  /** Full name with ' > ', or '' when the whole file failed (import error). */
  readonly name: string;
  readonly message: string;
  readonly evidence: string;
}

const FAIL_LINE = /\bFAIL\s+(?:\|[^|]*\|\s+)?(\S+?)(?::\d+:\d+)?(?:\s+>\s+(.+?)|\s+\[\s*(.+?)\s*\])?\s*$/;
const UNHANDLED_LINE = /Unhandled (Rejection|Error)\s*(?:⎯|$)/;
const ORIGIN_LINE = /This error originated in "(.+?)" test file/;
const LATEST_LINE = /The latest test that might've caused the error is "(.+?)"/;

export function parseFailLine(text: string): { file: string; name: string } | null {
  const m = FAIL_LINE.exec(stripAnsi(text));
  if (!m?.[1]) return null;
  const file = m[1];
  if (!/\.[cm]?[jt]sx?$|\.vue$|\.svelte$/.test(file)) return null;
  return { file, name: m[2] !== undefined ? m[2].trim() : '' };
}

function firstMessage(after: readonly string[]): string {
  return (after.find((l) => l.trim() !== '') ?? '').trim();
}

export function readLogFailures(scan: LogScan): LogFailure[] {
  const out: LogFailure[] = [];
  const seen = new Set<string>();
  for (const e of scan.events) {
    if (e.id !== 'vitest:fail') continue;
    const parsed = parseFailLine(e.text);
    if (!parsed) continue;
    const key = `${parsed.file}::${parsed.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ ...parsed, message: firstMessage(e.after), evidence: `${scan.input}:${e.line}: ${e.text.trim()}${e.after.length > 0 ? ` | ${e.after.slice(0, 2).map((l) => l.trim()).join(' | ')}` : ''}` });
  }
  return out;
}

export function readLogUnhandled(scan: LogScan): (ObservedUnhandled & { readonly line: number })[] {
  const out: (ObservedUnhandled & { line: number })[] = [];
  let current: { type: string; message: string; file: string | null; test: string | null; line: number } | null = null;
  const flush = (): void => {
    if (current) out.push({ ...current, origin: `${scan.input}:${current.line}: ${current.type}: ${current.message}` });
    current = null;
  };
  for (const e of scan.events as readonly LogEvent[]) {
    if (e.id === 'vitest:unhandled') {
      const m = UNHANDLED_LINE.exec(e.text);
      if (!m?.[1]) continue;
      flush();
      current = { type: `Unhandled ${m[1]}`, message: firstMessage(e.after), file: null, test: null, line: e.line };
    } else if (e.id === 'vitest:origin' && current) {
      current.file = ORIGIN_LINE.exec(e.text)?.[1] ?? null;
    } else if (e.id === 'vitest:latest' && current) {
      current.test = LATEST_LINE.exec(e.text)?.[1] ?? null;
    }
  }
  flush();
  return out;
}

/** Log failures as observations, so that they merge with the reports' entries for the same test. */
export function logFailuresAsTests(failures: readonly LogFailure[], mapFile: (file: string) => string): ObservedTest[] {
  return failures.map((f) => ({
    kind: f.name === '' ? 'file' : 'test',
    file: mapFile(f.file),
    name: f.name,
    line: null,
    state: 'failed',
    durationMs: null,
    errors: f.message === '' ? [] : [f.message],
    limitMs: null,
    source: 'log',
    origin: f.evidence,
  }));
}
