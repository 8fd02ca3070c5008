/**
 * Reads a CI log in 1 MiB chunks (never the whole file in memory) and collects the lines that match
 * the compiled matcher, with their line numbers and a few following lines. Candidate lines are found
 * on the raw bytes with a multi-literal search (src/core/triage/log-needles.ts), plus one expression for
 * regex signatures without needles; only candidate lines are decoded and identified exactly.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { type CompiledLogMatcher, stripAnsi } from '../../core/triage/log-matcher.js';
import { compileNeedles, countBigrams, type NeedleSearch } from '../../core/triage/log-needles.js';
import type { LogEvent, LogScan } from '../../core/triage/triage-types.js';

const CHUNK = 1 << 20;
const MAX_LINE = 8 << 20;
const TAIL_LINES = 15;
const TAIL_BYTES = 16 << 10;
const MAX_EVENT_TEXT = 500;

interface PendingAfter {
  readonly after: string[];
  need: number;
  budget: number;
}

function clip(text: string): string {
  const clean = stripAnsi(text).replace(/\r$/, '');
  return clean.length > MAX_EVENT_TEXT ? `${clean.slice(0, MAX_EVENT_TEXT)}…` : clean;
}

/** Starts of the lines in `buf` that hold a candidate, ascending, each once. */
function candidateLines(buf: Buffer, search: NeedleSearch, fallback: RegExp | null): number[] {
  const starts: number[] = [];
  let lineEnd = -1;
  search.search(buf, 0, buf.length, (start) => {
    if (start <= lineEnd) return;
    starts.push(buf.lastIndexOf(10, start) + 1);
    const nl = buf.indexOf(10, start);
    lineEnd = nl === -1 ? buf.length : nl;
  });
  if (fallback === null) return starts;
  const text = buf.toString('latin1');
  const more: number[] = [];
  fallback.lastIndex = 0;
  for (let m = fallback.exec(text); m !== null; m = fallback.exec(text)) {
    more.push(text.lastIndexOf('\n', m.index) + 1);
    const nl = text.indexOf('\n', m.index);
    if (nl === -1) break;
    fallback.lastIndex = nl + 1;
  }
  return [...new Set([...starts, ...more])].sort((a, b) => a - b);
}

export async function scanLog(file: string, matcher: CompiledLogMatcher, input = file): Promise<LogScan> {
  const scanner = new LogScanner(matcher);
  let carry: Buffer = Buffer.alloc(0);
  // Synchronous reads into fresh 1 MiB buffers: no stream machinery per chunk; memory stays flat.
  const fd = openSync(file, 'r');
  try {
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK);
      const n = readSync(fd, chunk, 0, CHUNK, null);
      if (n === 0) break;
      const data = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, n)]) : chunk.subarray(0, n);
      const lastNl = data.lastIndexOf(10);
      if (lastNl === -1 && data.length < MAX_LINE) {
        carry = data;
        continue;
      }
      const cut = lastNl === -1 ? data.length : lastNl + 1;
      scanner.processBlock(data.subarray(0, cut));
      carry = data.subarray(cut);
    }
  } finally {
    closeSync(fd);
  }
  if (carry.length > 0) scanner.processBlock(Buffer.concat([carry, Buffer.from('\n')]));
  return scanner.finish(input);
}

/** The scan's state across blocks of whole lines: hits so far, their pending context, line count and tail. */
class LogScanner {
  // The search is compiled on the first chunk: its bigram counts pick each needle's rarest window.
  private search: NeedleSearch | null = null;
  private readonly fallback: RegExp | null;
  private readonly events: LogEvent[] = [];
  private readonly counts: Record<string, number> = {};
  private pending: PendingAfter[] = [];
  private linesBefore = 0;
  private tail: Buffer = Buffer.alloc(0);

  constructor(private readonly matcher: CompiledLogMatcher) {
    this.fallback = matcher.fallbackSource === null ? null : new RegExp(matcher.fallbackSource, 'gm');
  }

  /** Fills the context of earlier hits from the lines in [from, end). */
  private fillPending(buf: Buffer, from: number, end: number): void {
    let pos = from;
    while (this.pending.length > 0 && pos < end) {
      const nl = buf.indexOf(10, pos);
      const stop = nl === -1 || nl > end ? end : nl;
      const text = clip(buf.toString('utf8', pos, stop));
      for (const p of this.pending) {
        p.budget -= 1;
        if (text.trim() !== '') {
          p.after.push(text);
          p.need -= 1;
        }
      }
      this.pending = this.pending.filter((p) => p.need > 0 && p.budget > 0);
      pos = stop + 1;
    }
  }

  processBlock(buf: Buffer): void {
    this.fillPending(buf, 0, buf.length);
    let cursor = 0;
    let cursorLine = this.linesBefore;
    this.search ??= compileNeedles(this.matcher.needles, { frequency: countBigrams(buf.subarray(0, CHUNK)) });
    for (const start of candidateLines(buf, this.search, this.fallback)) {
      const nl = buf.indexOf(10, start);
      const end = nl === -1 ? buf.length : nl;
      const line = buf.toString('utf8', start, end);
      const ids = this.matcher.identify(line);
      if (ids.length === 0) continue;
      for (let i = buf.indexOf(10, cursor); i !== -1 && i < start; i = buf.indexOf(10, i + 1)) cursorLine += 1;
      cursor = start;
      this.recordHits(buf, ids, line, cursorLine + 1, end);
    }
    for (let i = buf.indexOf(10, cursor); i !== -1; i = buf.indexOf(10, i + 1)) cursorLine += 1;
    this.linesBefore = cursorLine;
    this.tail = Buffer.concat([this.tail, buf.subarray(-TAIL_BYTES)]).subarray(-TAIL_BYTES);
  }

  /** One event per signature the line at `lineNumber` hit (up to each one's keep limit), its context read from after `end`. */
  private recordHits(buf: Buffer, ids: readonly string[], line: string, lineNumber: number, end: number): void {
    for (const id of ids) {
      const seen = (this.counts[id] ?? 0) + 1;
      this.counts[id] = seen;
      if (seen > this.matcher.keepLimit(id)) continue;
      const after: string[] = [];
      this.events.push({ line: lineNumber, text: clip(line), id, after });
      const need = this.matcher.afterLines(id);
      if (need > 0) {
        const saved = this.pending;
        this.pending = [{ after, need, budget: need * 4 }];
        this.fillPending(buf, end + 1, buf.length);
        this.pending = [...saved, ...this.pending];
      }
    }
  }

  finish(input: string): LogScan {
    const lines = this.linesBefore;
    const tailLines = this.tail.toString('utf8').split('\n');
    if (tailLines[tailLines.length - 1] === '') tailLines.pop();
    const kept = tailLines.slice(-TAIL_LINES);
    return {
      input,
      lines,
      events: this.events,
      counts: this.counts,
      tail: kept.map((text, i) => ({ line: lines - kept.length + i + 1, text: clip(text) })),
    };
  }
}
