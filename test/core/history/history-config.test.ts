import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/core/config.js';

const errorOf = (text: string): string => {
  try {
    parseConfig(text, 'flakeguard.yaml');
  } catch (error) {
    return (error as Error).message;
  }
  return 'no error';
};

describe('history in flakeguard.yaml', () => {
  it('is off by default, embedded with true, PostgreSQL with a url', () => {
    expect(parseConfig('records: runs\n', 'f').history).toEqual({ kind: 'off' });
    expect(parseConfig('history: true\n', 'f').history).toEqual({ kind: 'embedded' });
    expect(parseConfig('history: false\n', 'f').history).toEqual({ kind: 'off' });
    expect(parseConfig('history:\n  url: postgres://ci@db:5432/flakes\n', 'f').history).toEqual({
      kind: 'postgres',
      url: 'postgres://ci@db:5432/flakes',
    });
  });

  it('names the place and the accepted forms of a bad value', () => {
    expect(errorOf('history: yes please\n')).toBe(
      'flakeguard.yaml:1:10: history "yes please" is not a history setting; write history: true (embedded store), history: false, or history: { url: postgres://user@host/db }',
    );
    expect(errorOf('history:\n  url: mysql://db/x\n')).toMatch(
      /^flakeguard\.yaml:2:8: history\.url "mysql:\/\/db\/x" is not a PostgreSQL URL; write postgres:\/\//,
    );
    expect(errorOf('history:\n  path: x\n')).toMatch(
      /^flakeguard\.yaml:2:3: unknown key "history\.path"; the only key is url/,
    );
    expect(errorOf('history: {}\n')).toMatch(/history needs a url/);
  });
});
