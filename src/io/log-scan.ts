/**
 * Reads a CI log as a stream (1 MiB chunks, never the whole file) and collects the lines that match
 * the compiled matcher, with their line numbers and a few following lines. The bytes are searched as
 * latin1 (one char per byte) with one combined expression; only the hit lines are decoded as UTF-8.
 */
import { createReadStream } from 'node:fs';
import { stripAnsi, type CompiledLogMatcher } from '../core/log-matcher.js';
import type { LogEvent, LogScan } from '../core/triage-types.js';

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

export async function scanLog(file: string, matcher: CompiledLogMatcher, input = file): Promise<LogScan> {
  const re = new RegExp(matcher.byteSource, 'gm');
  const events: LogEvent[] = [];
  const counts: Record<string, number> = {};
  let pending: PendingAfter[] = [];
  let linesBefore = 0;
  let carry: Buffer = Buffer.alloc(0);
  let tail: Buffer = Buffer.alloc(0);

  /** Fills the context of earlier hits from the lines starting at `from`; returns where it stopped. */
  const fillPending = (buf: Buffer, from: number, end: number): void => {
    let pos = from;
    while (pending.length > 0 && pos < end) {
      const nl = buf.indexOf(10, pos);
      const stop = nl === -1 || nl > end ? end : nl;
      const text = clip(buf.toString('utf8', pos, stop));
      for (const p of pending) {
        p.budget -= 1;
        if (text.trim() !== '') {
          p.after.push(text);
          p.need -= 1;
        }
      }
      pending = pending.filter((p) => p.need > 0 && p.budget > 0);
      pos = stop + 1;
    }
  };

  const processBlock = (buf: Buffer): void => {
    const text = buf.toString('latin1');
    fillPending(buf, 0, buf.length);
    let cursor = 0;
    let cursorLine = linesBefore;
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null) {
      const start = text.lastIndexOf('\n', m.index) + 1;
      const nl = text.indexOf('\n', m.index);
      const end = nl === -1 ? text.length : nl;
      re.lastIndex = end + 1;
      const line = buf.toString('utf8', start, end);
      const ids = matcher.identify(line);
      if (ids.length === 0) continue;
      for (let i = buf.indexOf(10, cursor); i !== -1 && i < start; i = buf.indexOf(10, i + 1)) cursorLine += 1;
      cursor = start;
      for (const id of ids) {
        const seen = (counts[id] ?? 0) + 1;
        counts[id] = seen;
        if (seen > matcher.keepLimit(id)) continue;
        const after: string[] = [];
        events.push({ line: cursorLine + 1, text: clip(line), id, after });
        const need = matcher.afterLines(id);
        if (need > 0) {
          const p: PendingAfter = { after, need, budget: need * 4 };
          const saved = pending;
          pending = [p];
          fillPending(buf, end + 1, buf.length);
          pending = [...saved, ...pending];
        }
      }
      if (end >= text.length) break;
    }
    for (let i = buf.indexOf(10, cursor); i !== -1; i = buf.indexOf(10, i + 1)) cursorLine += 1;
    linesBefore = cursorLine;
    tail = Buffer.concat([tail, buf.subarray(-TAIL_BYTES)]).subarray(-TAIL_BYTES);
  };

  const stream = createReadStream(file, { highWaterMark: CHUNK });
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const data = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    const lastNl = data.lastIndexOf(10);
    if (lastNl === -1 && data.length < MAX_LINE) {
      carry = data;
      continue;
    }
    const cut = lastNl === -1 ? data.length : lastNl + 1;
    processBlock(data.subarray(0, cut));
    carry = data.subarray(cut);
  }
  let lines = linesBefore;
  if (carry.length > 0) {
    processBlock(Buffer.concat([carry, Buffer.from('\n')]));
    lines = linesBefore;
  }
  const tailLines = tail.toString('utf8').split('\n');
  if (tailLines[tailLines.length - 1] === '') tailLines.pop();
  const kept = tailLines.slice(-TAIL_LINES);
  return {
    input,
    lines,
    events,
    counts,
    tail: kept.map((text, i) => ({ line: lines - kept.length + i + 1, text: clip(text) })),
  };
}
