import { describe, expect, it } from 'vitest';
import { findReplayLines } from '../../../src/core/replay/replay-target.js';

const tests = [
  { fullName: 'sets the user', line: 3 },
  { fullName: 'adds', line: 4 },
  { fullName: 'shows the user', line: 6 },
];
const file = 'test/user.test.ts';

describe('findReplayLines', () => {
  it('finds the test and the earlier --after test by full name', () => {
    expect(findReplayLines(tests, { file, fullName: 'shows the user', after: null })).toEqual({
      line: 6,
      afterLine: null,
    });
    expect(findReplayLines(tests, { file, fullName: 'shows the user', after: 'sets the user' })).toEqual({
      line: 6,
      afterLine: 3,
    });
  });

  it('names an unknown test and the names the file has', () => {
    expect(findReplayLines(tests, { file, fullName: 'shows user', after: null })).toEqual({
      error: `-t "shows user" is not a test of test/user.test.ts (its tests: "sets the user", "adds", "shows the user"); pass its full name, titles joined with ' > '`,
    });
  });

  it('refuses an --after test that is not earlier, naming the earlier ones', () => {
    const found = findReplayLines(tests, { file, fullName: 'adds', after: 'shows the user' });
    expect(found).toEqual({
      error:
        '--after "shows the user" is not a test of test/user.test.ts before "adds" (its tests: "sets the user"); name an earlier test of the same file',
    });
  });
});
