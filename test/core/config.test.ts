import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, parseConfig } from '../../src/core/config.js';
import { serializeDuration } from '../../src/core/duration.js';

function messageOf(text: string): string {
  try {
    parseConfig(text, 'flakeguard.yaml');
  } catch (error) {
    return (error as Error).message;
  }
  return 'no error';
}

describe('parseConfig: malformed configs name file:line:column and the accepted forms', () => {
  it.each([
    [
      'YAML syntax',
      'budget:\n  test: 5s\n   file: 6s\n',
      'flakeguard.yaml:2:9: YAML syntax error: Nested mappings are not allowed in compact mappings',
    ],
    ['tabs', 'budget:\n\ttest: 5s\n', 'flakeguard.yaml:2:1: YAML syntax error: Tabs are not allowed as indentation'],
    [
      'a duplicate key',
      'budget:\n  test: 5s\n  test: 6s\n',
      'flakeguard.yaml:3:3: YAML syntax error: Map keys must be unique',
    ],
    [
      'an unknown key',
      'budget:\n  test: 5s\nbudgets: 1\n',
      'flakeguard.yaml:3:1: unknown key "budgets"; use budget, allowances, records, triage',
    ],
    [
      'an unknown budget key',
      'budget:\n  tests: 5s\n',
      'flakeguard.yaml:2:3: unknown key "budget.tests"; use test, file, warnAt',
    ],
    [
      'an unknown platform',
      'budget:\n  test: { linux: 5s, macos: 4s }\n',
      'flakeguard.yaml:2:22: unknown platform "macos" in budget.test; use one of aix, android, darwin, freebsd, haiku, linux, openbsd, sunos, win32, cygwin, netbsd or default',
    ],
    [
      '"5 sec"',
      'budget:\n  test: 5 sec\n',
      'flakeguard.yaml:2:9: budget.test "5 sec" is not a duration; write 250ms, 5s, 1.5s or 2m',
    ],
    [
      '"5 sec" in a map',
      'budget:\n  file:\n    linux: 5 sec\n',
      'flakeguard.yaml:3:12: budget.file.linux "5 sec" is not a duration; write 250ms, 5s, 1.5s or 2m',
    ],
    [
      'a bare number',
      'budget:\n  test: 5\n',
      'flakeguard.yaml:2:9: budget.test 5 is not a duration; write 250ms, 5s, 1.5s or 2m',
    ],
    [
      'warnAt over 100%',
      'budget:\n  warnAt: 120%\n',
      'flakeguard.yaml:2:11: budget.warnAt "120%" is not a share; write a percentage between 1% and 100%, e.g. 80%',
    ],
    ['a list at the top', '- budget\n', 'flakeguard.yaml:1:1: flakeguard.yaml must be a map'],
  ])('%s', (_what, text, expected) => {
    expect(messageOf(text)).toContain(expected);
  });

  it('reads every form of the issue', () => {
    const config = parseConfig(
      'budget:\n  test: { linux: 5s, darwin: 4s, win32: 10s, default: 5s }\n  file: 60s\n  warnAt: 80%\nallowances: allowances\n',
      'flakeguard.yaml',
    );
    expect(config.budget).toEqual({
      test: { kind: 'map', values: { linux: 5000, darwin: 4000, win32: 10_000, default: 5000 } },
      file: { kind: 'single', value: 60_000 },
      warnAt: 0.8,
    });
  });

  it('an empty file means the defaults', () => {
    expect(parseConfig('', 'flakeguard.yaml')).toEqual(DEFAULT_CONFIG);
    expect(parseConfig('# only a comment\n', 'flakeguard.yaml')).toEqual(DEFAULT_CONFIG);
  });

  it('property: a serialized duration in budget.test reads back as the same milliseconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3_600_000 }), (ms) => {
        expect(parseConfig(`budget:\n  test: ${serializeDuration(ms)}\n`, 'f.yaml').budget.test).toEqual({
          kind: 'single',
          value: ms,
        });
      }),
    );
  });
});

describe('parseConfig: seed', () => {
  it('is off by default, on with seed: true', () => {
    expect(DEFAULT_CONFIG.seed).toBe(false);
    expect(parseConfig('seed: true\n', 'flakeguard.yaml').seed).toBe(true);
    expect(parseConfig('seed: false\n', 'flakeguard.yaml').seed).toBe(false);
    expect(parseConfig('seed: true\n', 'flakeguard.yaml').seedNodeCrypto).toBeUndefined();
  });

  it('seed: node-crypto seeds node:crypto too', () => {
    expect(parseConfig('seed: node-crypto\n', 'flakeguard.yaml')).toMatchObject({ seed: true, seedNodeCrypto: true });
  });

  it('anything but true, false or node-crypto names the place and the fix', () => {
    expect(() => parseConfig('seed: yes please\n', 'flakeguard.yaml')).toThrow(
      `flakeguard.yaml:1:7: seed must be true, false or node-crypto, found "yes please"; write seed: true to seed every test and record its seed, seed: node-crypto to seed node:crypto's randomBytes, randomInt and randomUUID too (docs/replay.md "Replays from CI")`,
    );
  });
});
