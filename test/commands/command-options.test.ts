/**
 * Every command's options are written once, in its table: --help is generated from it, and
 * README.md and the command's docs page must name every option, so the three cannot drift.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALLOWANCES_USAGE, SUBCOMMAND_OPTIONS } from '../../src/commands/allowances/allowances-options.js';
import { GATE_USAGE } from '../../src/commands/gate/gate-args.js';
import {
  HISTORY_INGEST_OPTIONS,
  HISTORY_PRUNE_OPTIONS,
  HISTORY_QUERY_OPTIONS,
} from '../../src/commands/history/history-options.js';
import { INIT_USAGE } from '../../src/commands/init/init-command.js';
import { QUARANTINE_SUBCOMMANDS, QUARANTINE_USAGE } from '../../src/commands/quarantine/quarantine-options.js';
import { REPLAY_USAGE } from '../../src/commands/replay/replay-args.js';
import { TRIAGE_USAGE } from '../../src/commands/triage/triage-options.js';
import { formatUsage, type OptionTable, type UsageText } from '../../src/core/usage.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');
const names = (table: OptionTable): string[] => Object.keys(table).filter((n) => n !== 'help');

const COMMANDS: {
  name: string;
  options: OptionTable;
  usage?: UsageText;
  docs: string[];
  subcommands?: Readonly<Record<string, readonly string[]>>;
}[] = [
  { name: 'gate', options: GATE_USAGE.options, usage: GATE_USAGE, docs: ['README.md', 'docs/gate.md'] },
  { name: 'triage', options: TRIAGE_USAGE.options, usage: TRIAGE_USAGE, docs: ['README.md', 'docs/triage.md'] },
  { name: 'replay', options: REPLAY_USAGE.options, usage: REPLAY_USAGE, docs: ['README.md', 'docs/replay.md'] },
  {
    name: 'allowances',
    options: ALLOWANCES_USAGE.options,
    usage: ALLOWANCES_USAGE,
    docs: ['README.md', 'docs/allowances.md'],
    subcommands: SUBCOMMAND_OPTIONS,
  },
  {
    name: 'quarantine',
    options: QUARANTINE_USAGE.options,
    usage: QUARANTINE_USAGE,
    docs: ['README.md', 'docs/quarantine.md'],
    subcommands: QUARANTINE_SUBCOMMANDS,
  },
  { name: 'history', options: HISTORY_QUERY_OPTIONS, docs: ['docs/history.md'] },
  { name: 'history ingest', options: HISTORY_INGEST_OPTIONS, docs: ['docs/history.md'] },
  { name: 'history prune', options: HISTORY_PRUNE_OPTIONS, docs: ['docs/history.md'] },
  { name: 'init', options: INIT_USAGE.options, usage: INIT_USAGE, docs: ['README.md'] },
];

describe.each(COMMANDS)('flakeguard $name', ({ options, usage, docs, subcommands, name }) => {
  it('--help names every option; every option belongs to a subcommand', () => {
    if (usage) {
      const help = formatUsage(usage);
      for (const option of names(options)) expect(help).toContain(`--${option}`);
    }
    if (subcommands) {
      for (const sub of Object.keys(subcommands))
        expect(formatUsage(usage as UsageText)).toContain(`flakeguard ${name} ${sub}`);
      for (const option of names(options))
        expect(
          Object.values(subcommands).some((list) => list.includes(option)),
          `--${option}`,
        ).toBe(true);
    }
  });

  it.each(docs)('%s names every option', (file) => {
    const text = read(file);
    for (const option of names(options)) expect(text, `--${option} in ${file}`).toContain(`--${option}`);
  });

  it("the command's page names each option's old name", () => {
    const text = read(docs.at(-1) as string);
    for (const spec of Object.values(options))
      if (spec.formerly !== undefined) expect(text, `--${spec.formerly}`).toContain(`--${spec.formerly}`);
  });
});

describe('exit codes', () => {
  it.each(['README.md', 'docs/triage.md', 'docs/gate.md'])('%s names exit 130 (interrupted)', (file) => {
    expect(read(file)).toMatch(/130/);
  });

  it('every usage names its exit codes', () => {
    for (const c of COMMANDS) if (c.usage) expect(c.usage.exit).toMatch(/\b0\b.*\b2\b/);
  });
});
