/**
 * `flakeguard init`: writes a commented flakeguard.yaml and the allowances folder, prints the
 * reporters line to add (it never edits the user's Vitest config), and suggests a budget from the
 * newest run record when there is one.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_TEST_BUDGET_MS } from '../../core/budget/budget-config.js';
import { computeBudgetSuggestion, formatBudgetSuggestion } from '../../core/budget/budget-suggestion.js';
import { DEFAULT_CONFIG } from '../../core/config.js';
import { REPORTERS_LINE, renderConfigTemplate } from '../../core/config-template.js';
import { serializeDuration } from '../../core/duration.js';
import { FlakeguardError } from '../../core/errors.js';
import type { UsageText } from '../../core/usage.js';
import { CONFIG_FILE } from '../../io/config/config-file.js';
import { writeFileAtomic } from '../../io/files/atomic-write.js';
import { resolveProjectPlaces } from '../../io/places/project-places.js';
import { newestRunRecords, readRunRecord } from '../../io/record/run-record-file.js';
import { parseCommandArgs } from '../command-args.js';

export const INIT_USAGE = {
  synopsis: ['flakeguard init [--root <dir>]'],
  summary:
    'Creates flakeguard.yaml (every key commented) and the allowances/ folder in the project root, and prints the reporters line to add to your Vitest config. Existing files are never overwritten.',
  options: {
    root: { type: 'string', value: '<dir>', help: 'the project folder (default: the current folder)' },
    help: { type: 'boolean', short: 'h', help: 'print this help' },
  },
  exit: '0 done, 2 could not run.',
  docs: 'README.md "Quick start in your project"',
} as const satisfies UsageText;

/** Durations of the passed tests in the newest run record, or null when there is none readable. */
function newestRecordDurations(root: string): number[] | null {
  const newest = newestRunRecords(root, resolveProjectPlaces(root, DEFAULT_CONFIG).records, 1).records[0];
  if (newest === undefined) return null;
  try {
    return readRunRecord(newest).tests.flatMap((t) =>
      t.durationMs !== null && t.state === 'passed' ? [t.durationMs] : [],
    );
  } catch {
    return null;
  }
}

export async function runInitCommand(args: string[]): Promise<number> {
  const parsed = parseCommandArgs('flakeguard init', INIT_USAGE, args);
  if (parsed === 'help') return 0;
  const { values } = parsed;
  const root = path.resolve(values.root ?? process.cwd());
  if (!existsSync(root))
    throw new FlakeguardError('USAGE', `--root ${root} does not exist; pass the folder that holds your Vitest config`);
  const lines: string[] = [];
  const suggestion = computeBudgetSuggestion(newestRecordDurations(root) ?? []);
  const configPath = path.join(root, CONFIG_FILE);
  if (existsSync(configPath)) {
    lines.push(`${CONFIG_FILE} already exists; left as it is.`);
  } else {
    const budget =
      suggestion && suggestion.suggestedTestBudgetMs > DEFAULT_TEST_BUDGET_MS
        ? serializeDuration(suggestion.suggestedTestBudgetMs)
        : serializeDuration(DEFAULT_TEST_BUDGET_MS);
    writeFileAtomic(configPath, renderConfigTemplate(budget));
    lines.push(`Created ${CONFIG_FILE} (every key commented; test budget ${budget}).`);
  }
  const allowancesDir = path.join(root, DEFAULT_CONFIG.allowances);
  if (existsSync(allowancesDir)) {
    lines.push(`${DEFAULT_CONFIG.allowances}/ already exists; left as it is.`);
  } else {
    mkdirSync(allowancesDir, { recursive: true });
    writeFileSync(path.join(allowancesDir, '.gitkeep'), '');
    lines.push(`Created ${DEFAULT_CONFIG.allowances}/ (allowance files are written here, one per test file).`);
  }
  lines.push(
    '',
    'Add flakeguard to the reporters in your Vitest config (vitest.config.ts, test section):',
    `  ${REPORTERS_LINE}`,
  );
  lines.push('', `Add ${DEFAULT_CONFIG.records}/ to .gitignore: run records are per machine.`);
  if (suggestion) lines.push('', formatBudgetSuggestion(suggestion));
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
