/** The allowances option table is the one source of --help, and README.md and docs/allowances.md name every option. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALLOWANCES_OPTIONS, ALLOWANCES_USAGE, SUBCOMMAND_OPTIONS } from '../../../src/commands/allowances/allowances-options.js';
import { formatUsage } from '../../../src/core/usage.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const names = Object.keys(ALLOWANCES_OPTIONS).filter((n) => n !== 'help');

describe('flakeguard allowances options', () => {
  it('--help names every subcommand and option; every option belongs to a subcommand', () => {
    const help = formatUsage(ALLOWANCES_USAGE);
    for (const sub of Object.keys(SUBCOMMAND_OPTIONS)) expect(help).toContain(`flakeguard allowances ${sub}`);
    for (const name of names) {
      expect(help).toContain(`--${name}`);
      expect(Object.values(SUBCOMMAND_OPTIONS).some((list) => (list as readonly string[]).includes(name))).toBe(true);
    }
  });

  it.each(['README.md', 'docs/allowances.md'])('%s names every option', (file) => {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    for (const name of names) expect(text, `--${name}`).toContain(`--${name}`);
  });
});
