/**
 * The one reader of the results file (tries.jsonl) the test workers append to: each call returns
 * the lines completed since the last one, reading only the new bytes (the gate's pacer calls it
 * every few milliseconds). The Vitest child and the gate's parent both read through it.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { parseRunnerLines, type RunnerLine } from '../../core/gate/runner-protocol.js';

export function tailResultsFile(file: string): () => RunnerLine[] {
  let offset = 0;
  let rest = '';
  return () => {
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch {
      return [];
    }
    try {
      const size = fstatSync(fd).size;
      if (size < offset) {
        offset = 0;
        rest = '';
      }
      if (size === offset) return [];
      const buffer = Buffer.alloc(size - offset);
      const n = readSync(fd, buffer, 0, buffer.length, offset);
      offset += n;
      const parsed = parseRunnerLines(rest + buffer.subarray(0, n).toString('utf8'));
      rest = parsed.rest;
      return parsed.lines;
    } finally {
      closeSync(fd);
    }
  };
}
