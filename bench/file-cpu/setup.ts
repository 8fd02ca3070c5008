/**
 * Setup file of bench/file-cpu/vitest.config.ts: when a test file ends, appends one JSON line to
 * FLAKEGUARD_FILE_CPU_OUT with the CPU seconds of this worker since the file's setup (its own and
 * those of every child process it waited for, from /proc/self/stat: utime + stime + cutime +
 * cstime), and the file's wall seconds. With `isolate: false` a worker runs several files, so the
 * figure is a difference, not the worker's total. Linux only (/proc).
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, expect } from 'vitest';
import { parseStat } from '../../src/core/gate/proc-text.js';

/** This process's CPU and that of the children it waited for (s), by the project's /proc parser. */
function cpuSeconds(): number {
  const stat = parseStat(readFileSync('/proc/self/stat', 'utf8'));
  if (!stat) throw new Error('file-cpu: /proc/self/stat could not be read (the bench needs Linux /proc)');
  return (stat.cpuMs + stat.childCpuMs) / 1000;
}

const out = process.env['FLAKEGUARD_FILE_CPU_OUT'];
const wallStart = Date.now();
const cpuStart = cpuSeconds();
afterAll(() => {
  if (!out) return;
  const file = expect.getState().testPath ?? '?';
  const cpu = Math.round((cpuSeconds() - cpuStart) * 100) / 100;
  appendFileSync(out, `${JSON.stringify({ file, cpu, wall: (Date.now() - wallStart) / 1000 })}\n`);
});
