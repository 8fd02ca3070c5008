/** The quarantine option table is the one source of --help, and README.md and docs/quarantine.md name every option. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { QUARANTINE_OPTIONS, QUARANTINE_USAGE, QUARANTINE_SUBCOMMANDS } from '../../../src/commands/quarantine/quarantine-options.js';
import { formatUsage } from '../../../src/core/usage.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const names = Object.keys(QUARANTINE_OPTIONS).filter((n) => n !== 'help');

describe('flakeguard quarantine options', () => {
  it('--help names every subcommand and option; every option belongs to a subcommand', () => {
    const help = formatUsage(QUARANTINE_USAGE);
    for (const sub of Object.keys(QUARANTINE_SUBCOMMANDS)) expect(help).toContain(`flakeguard quarantine ${sub}`);
    for (const name of names) {
      expect(help).toContain(`--${name}`);
      expect(Object.values(QUARANTINE_SUBCOMMANDS).some((list) => (list as readonly string[]).includes(name))).toBe(true);
    }
  });

  it.each(['README.md', 'docs/quarantine.md'])('%s names every option', (file) => {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    for (const name of names) expect(text, `--${name}`).toContain(`--${name}`);
  });
});
