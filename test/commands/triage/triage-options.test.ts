/** The triage option table is the one source of --help, and README.md and docs/triage.md name every option. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TRIAGE_OPTIONS, TRIAGE_USAGE } from '../../../src/commands/triage/triage-options.js';
import { formatUsage } from '../../../src/core/usage.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

describe('flakeguard triage options', () => {
  it('--help names every option, exit 130 and the docs', () => {
    const help = formatUsage(TRIAGE_USAGE);
    for (const name of Object.keys(TRIAGE_OPTIONS)) expect(help).toContain(`--${name}`);
    expect(help).toContain('130 interrupted');
  });

  it.each(['README.md', 'docs/triage.md'])('%s names every option and exit 130', (file) => {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    for (const name of Object.keys(TRIAGE_OPTIONS).filter((n) => n !== 'help')) expect(text, `--${name}`).toContain(`--${name}`);
    expect(text).toMatch(/130 interrupted|\*\*130\*\* interrupted/);
  });
});
