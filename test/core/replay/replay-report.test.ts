import { describe, expect, it } from 'vitest';
import { plainConditions } from '../../../src/core/replay/replay-command.js';
import {
  computeReplayReport,
  formatReplayReport,
  type ReplayTry,
  replayExitCode,
} from '../../../src/core/replay/replay-report.js';

const conditions = {
  ...plainConditions({ file: 'test/draw.test.ts', fullName: 'flips a coin', project: null }),
  seed: 7,
};
const makeTry = (state: ReplayTry['state'], extra: Partial<ReplayTry> = {}): ReplayTry => ({
  state,
  durationMs: 12,
  seed: 7,
  ...extra,
});

describe('computeReplayReport and formatReplayReport', () => {
  it('counts failed and hung tries as failed, exit 1, each try printed with its seed and first error line', () => {
    const report = computeReplayReport(conditions, [
      makeTry('failed', { error: 'AssertionError: tails\n    at x' }),
      makeTry('passed'),
      makeTry('hung'),
    ]);
    expect(report).toMatchObject({ failed: 2, reproduced: '2/3', conditions: 'seed 7' });
    expect(replayExitCode(report)).toBe(1);
    const text = formatReplayReport(report);
    expect(text).toContain('replay: npx flakeguard replay "test/draw.test.ts" -t "flips a coin" --seed 7\n');
    expect(text).toContain('  try 1: failed in 12ms seed 7: AssertionError: tails\n');
    expect(text).toContain('  try 2: passed in 12ms seed 7\n');
    expect(text).toContain('failed 2/3 tries\n');
  });

  it('says when no try failed, exit 0', () => {
    const report = computeReplayReport(conditions, [makeTry('passed'), makeTry('passed')]);
    expect(replayExitCode(report)).toBe(0);
    expect(formatReplayReport(report)).toContain('passed all 2 tries: it did not fail under these conditions');
  });
});
