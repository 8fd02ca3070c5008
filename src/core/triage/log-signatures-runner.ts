/**
 * Built-in log signatures for the runner machine: a full disk, memory, processes killed or crashed
 * (Vitest workers among them), an overloaded worker RPC, lost coverage files. In order: the first
 * that matches a line wins (triage-signatures.ts).
 */
import type { LogSignature } from './log-signature.js';

const OOM = ['heap-out-of-memory', 'oom-killer'];

export const RUNNER_SIGNATURES: readonly LogSignature[] = [
  {
    id: 'enospc',
    match: 'ENOSPC',
    class: 'infrastructure',
    cause: 'disk full on the runner (ENOSPC)',
    action: 'free disk space on the runner (caches, build output, Docker layers) or use a bigger disk',
  },
  {
    id: 'heap-out-of-memory',
    match: 'JavaScript heap out of memory',
    class: 'infrastructure',
    cause: 'Node ran out of heap memory',
    action: 'raise --max-old-space-size, lower Vitest maxWorkers, or find the test that leaks memory',
  },
  {
    id: 'oom-killer',
    match: 'Out of memory: Killed process|oom-kill|OOMKilled',
    regex: true,
    needles: ['Out of memory', 'oom-kill', 'OOMKilled'],
    class: 'infrastructure',
    cause: 'the kernel out-of-memory killer stopped a process',
    action: 'lower Vitest maxWorkers or use a runner with more memory',
  },
  // Before exit-137: Vitest 5 words a worker's death `Worker exited unexpectedly with exit code 137 during
  // started state while running test file <path>` (or `with signal SIGKILL`); Vitest 4 only `Worker exited unexpectedly`.
  {
    id: 'worker-crash',
    match:
      'Worker exited unexpectedly(?: with (?:exit code -?\\d+ )?(?:signal \\w+ )?during \\w+ state)?|\\[vitest-pool\\]: Worker \\w+ emitted error',
    regex: true,
    needles: ['Worker exited unexpectedly', '[vitest-pool]'],
    class: 'infrastructure',
    cause: 'a Vitest worker process died (killed by a signal, crashed or out of memory)',
    action:
      'look for code that exits or kills the worker, or a native crash, in the file that was running; check memory',
    supersededBy: OOM,
  },
  {
    id: 'exit-137',
    match: '(?:exit(?:ed with)? code|exit status) 137\\b|^Killed\\s*$',
    regex: true,
    needles: ['code 137', 'status 137', 'Killed'],
    class: 'infrastructure',
    cause: 'killed by SIGKILL (exit 137): out-of-memory killer or a timeout kill; no OOM message seen',
    action: "check the runner's memory and the job time limit; re-run to see whether it repeats",
    supersededBy: OOM,
  },
  {
    id: 'exit-143',
    match: '(?:exit(?:ed with)? code|exit status) 143\\b|The operation was canceled',
    regex: true,
    needles: ['code 143', 'status 143', 'The operation was canceled'],
    class: 'infrastructure',
    cause: 'terminated by SIGTERM (exit 143): the job was cancelled or hit its time limit',
    action: 'check the job time limit and whether a newer push cancelled the run',
  },
  {
    id: 'segfault',
    match: 'Segmentation fault|core dumped',
    regex: true,
    needles: ['Segmentation fault', 'core dumped'],
    class: 'infrastructure',
    cause: 'a process crashed (segmentation fault)',
    action: 'rebuild native modules for this Node version (npm rebuild) and re-run',
  },
  {
    id: 'rpc-timeout',
    match: 'Timeout calling "',
    class: 'infrastructure',
    cause: "Vitest's worker RPC timed out (runner overloaded or a blocked event loop)",
    action: 'lower maxWorkers or find the test that blocks the event loop',
  },
  {
    id: 'coverage-enoent',
    match: "ENOENT: no such file or directory, [a-z]+ '[^']*coverage[^']*'",
    regex: true,
    needles: ['ENOENT'],
    class: 'infrastructure',
    cause: 'the coverage collector lost its temporary files (a reused process id or a parallel run removed them)',
    action: 'run coverage in one process per checkout and keep reportsDirectory unique per shard',
  },
];
