import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RunnerLine } from '../../../src/core/gate/runner-protocol.js';
import { unfinishedTries } from '../../../src/core/gate/unfinished-tries.js';
import { testKey } from '../../../src/core/test-id.js';

const keyOf = (fullName: string): string => testKey({ project: '', file: '/p/test/a.test.ts', fullName });

const start = (fullName: string, pid: number, startedAt = 1000): RunnerLine => ({
  kind: 'start',
  file: '/p/test/a.test.ts',
  project: '',
  fullName,
  key: keyOf(fullName),
  pid,
  tid: pid,
  startedAt,
  timeoutMs: 5000,
});
const done = (fullName: string, pid: number): RunnerLine => ({
  kind: 'try',
  file: '/p/test/a.test.ts',
  project: '',
  fullName,
  key: keyOf(fullName),
  try: { state: 'passed', durationMs: 3, cpuMs: 1, cold: true, startedAt: 1000, pid },
});

describe('unfinishedTries (issue 48: a try that ends its worker)', () => {
  it('a start without its try is a failed try naming the worker and the wave errors, once each', () => {
    const errors = ['[vitest-pool]: Worker forks emitted error: Worker exited unexpectedly'];
    const out = unfinishedTries([start('a', 7), done('a', 7), start('b', 8, 1500)], [...errors, ...errors], 1700);
    expect(out).toEqual([
      {
        kind: 'try',
        file: '/p/test/a.test.ts',
        project: '',
        fullName: 'b',
        key: keyOf('b'),
        try: {
          state: 'failed',
          durationMs: 200,
          cpuMs: 0,
          cold: true,
          startedAt: 1500,
          pid: 8,
          tid: 8,
          error: `its worker ended during the try (pid 8): ${errors[0]}`,
        },
      },
    ]);
  });

  it('without errors it says Vitest reported none; a try of the same test in another worker does not close it', () => {
    const out = unfinishedTries([start('a', 7), done('a', 9)], [], 1000);
    expect(out.map((l) => (l.kind === 'try' ? l.try.error : ''))).toEqual([
      'its worker ended during the try (pid 7): Vitest reported no error',
    ]);
  });

  it('every start ends up with exactly one try (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ name: fc.constantFrom('a', 'b', 'c'), pid: fc.integer({ min: 1, max: 5 }), ended: fc.boolean() }),
        ),
        (runs) => {
          const unique = [...new Map(runs.map((r) => [`${r.name} ${r.pid}`, r])).values()];
          const lines = unique.flatMap((r) =>
            r.ended ? [start(r.name, r.pid), done(r.name, r.pid)] : [start(r.name, r.pid)],
          );
          const all = [...lines, ...unfinishedTries(lines, [], 2000)];
          for (const r of unique) {
            const tries = all.filter((l) => l.kind === 'try' && l.fullName === r.name && l.try.pid === r.pid);
            expect(tries).toHaveLength(1);
          }
        },
      ),
    );
  });
});
