import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldRenamedOptions, formatUsage, type OptionTable, toParseArgsOptions } from '../../src/core/usage.js';

const TABLE: OptionTable = {
  base: { type: 'string', value: '<ref>', help: 'compare with the merge base of <ref>' },
  json: { type: 'boolean', help: 'print the report as JSON' },
  record: { type: 'string', multiple: true, value: '<file>', help: 'a run record' },
  help: { type: 'boolean', short: 'h', help: 'this text' },
};

describe('usage from the option table', () => {
  it('gives parseArgs only what it takes', () => {
    expect(toParseArgsOptions(TABLE)).toEqual({
      base: { type: 'string' },
      json: { type: 'boolean' },
      record: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    });
  });

  it('prints every option with its placeholder, exit codes and docs', () => {
    const text = formatUsage({
      synopsis: ['flakeguard x [options]'],
      summary: 'Does x.',
      options: TABLE,
      exit: '0 ok, 2 could not run',
      docs: 'docs/x.md',
    });
    expect(text).toContain('--base <ref>');
    expect(text).toContain('--record <file>...');
    expect(text).toContain('-h, --help');
    expect(text).toContain('Exit: 0 ok, 2 could not run');
    expect(text.split('\n')[0]).toBe('flakeguard x [options]');
  });

  it('names every option and keeps lines within the width when words fit', () => {
    const name = fc.stringMatching(/^[a-z][a-z-]{0,15}$/);
    const words = fc.array(fc.stringMatching(/^[a-z]{1,12}$/), { minLength: 1, maxLength: 40 });
    fc.assert(
      fc.property(fc.dictionary(name, words, { minKeys: 1, maxKeys: 8 }), (spec) => {
        const table: OptionTable = Object.fromEntries(
          Object.entries(spec).map(([k, w]) => [k, { type: 'boolean' as const, help: w.join(' ') }]),
        );
        const text = formatUsage({ synopsis: ['s'], summary: 's', options: table, exit: 'e', docs: 'd' }, 80);
        for (const k of Object.keys(table)) expect(text).toContain(`--${k}`);
        for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
      }),
    );
  });
});

describe('an option renamed in the table', () => {
  const RENAMED: OptionTable = {
    tries: { type: 'string', value: '<n>', formerly: 'runs', help: 'tries every test gets' },
    quiet: { type: 'boolean', formerly: 'silent', help: 'say less' },
  };

  it('gives parseArgs the old name too, and --help says it', () => {
    expect(toParseArgsOptions(RENAMED)).toEqual({
      tries: { type: 'string' },
      runs: { type: 'string' },
      quiet: { type: 'boolean' },
      silent: { type: 'boolean' },
    });
    const text = formatUsage({ synopsis: ['s'], summary: 's', options: RENAMED, exit: 'e', docs: 'd' });
    expect(text).toContain('tries every test gets (formerly --runs)');
  });

  it('reads the old name as the new one, with one notice each saying what to write', () => {
    expect(foldRenamedOptions(RENAMED, { runs: '3', silent: true })).toEqual({
      values: { tries: '3', quiet: true },
      notices: ['--runs is renamed --tries; write --tries 3', '--silent is renamed --quiet; write --quiet'],
      clash: null,
    });
    expect(foldRenamedOptions(RENAMED, { tries: '3' })).toEqual({ values: { tries: '3' }, notices: [], clash: null });
  });

  it('refuses the old name with the new one', () => {
    expect(foldRenamedOptions(RENAMED, { runs: '3', tries: '4' }).clash).toBe(
      '--runs is the old name of --tries; give only --tries',
    );
  });
});
