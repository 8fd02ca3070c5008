/**
 * `flakeguard allowances add|list|check|prune|migrate`. Exit codes: 0 done / clean, 1 `check`
 * found problems, 2 could not run (usage, config).
 */
import {
  computeAllowanceCheck,
  computeAllowanceList,
  formatAllowanceCheck,
  formatAllowanceList,
  toAllowanceListJson,
} from '../../core/allowances/allowance-list.js';
import { allowanceKey } from '../../core/allowances/allowance-match.js';
import { addAllowance } from '../../io/allowances/allowance-add.js';
import { type AllowanceState, gatherAllowanceState, lastDurations } from '../../io/allowances/allowances-state.js';
import { migrateAllowances, pruneAllowances } from '../../io/allowances/allowances-write.js';
import { requireFilesNotFolders } from '../../io/files/input-file.js';
import { commandUsageError, type ParsedValues, parseSubcommand } from '../command-args.js';
import { ALLOWANCES_USAGE, SUBCOMMAND_OPTIONS } from './allowances-options.js';

const COMMAND = 'flakeguard allowances';
type Values = ParsedValues<typeof ALLOWANCES_USAGE.options>;

const out = (text: string): void => void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
const err = (text: string): void => void process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);

function parse(args: string[]): { sub: string; values: Values } | 'help' {
  return parseSubcommand(COMMAND, ALLOWANCES_USAGE, SUBCOMMAND_OPTIONS, args);
}

function required(values: Values, key: 'file' | 'test' | 'budget' | 'reason'): string {
  const value = values[key];
  if (typeof value !== 'string' || value.trim() === '')
    throw commandUsageError(COMMAND, `allowances add needs --${key}`);
  return value;
}

export async function runAllowancesCommand(args: string[]): Promise<number> {
  const parsed = parse(args);
  if (parsed === 'help') return 0;
  const { sub, values } = parsed;
  const cwd = process.cwd();
  const state = await gatherAllowanceState(cwd);
  switch (sub) {
    case 'add':
      out(runAdd(state, values, cwd));
      return 0;
    case 'list':
      out(runList(state, values));
      return 0;
    case 'check': {
      const check = computeAllowanceCheck(
        state.resolutions,
        state.store.problems,
        state.universe,
        state.sourceProblems,
        state.lineageNotes,
      );
      out(formatAllowanceCheck(check, state.store.allowances.length));
      return check.findings.length > 0 ? 1 : 0;
    }
    case 'prune': {
      const lines = pruneAllowances(state, values['dry-run'] === true);
      out(lines.length > 0 ? lines.join('\n') : 'No orphans.');
      return 0;
    }
    case 'migrate': {
      const lines = migrateAllowances(state, values['dry-run'] === true);
      out(lines.length > 0 ? lines.join('\n') : 'Every allowance already names its test as it is now.');
      return 0;
    }
    default:
      throw commandUsageError(COMMAND, `unknown subcommand "${sub}"`);
  }
}

/** allowances add: the line that says which entry got the budget. */
function runAdd(state: AllowanceState, values: Values, cwd: string): string {
  requireFilesNotFolders('--file', [required(values, 'file')]);
  return addAllowance(
    state,
    {
      file: required(values, 'file'),
      fullName: required(values, 'test'),
      budget: required(values, 'budget'),
      reason: required(values, 'reason'),
      platform: values.platform,
      expires: values.expires,
      replace: values.replace === true,
    },
    cwd,
  );
}

/** allowances list: each allowance with its test's last measured duration, as text or --json. */
function runList(state: AllowanceState, values: Values): string {
  const keys = new Set(
    state.resolutions.flatMap((r) =>
      r.test
        ? [allowanceKey({ file: r.test.file, fullName: r.test.namePattern ? r.allowance.fullName : r.test.fullName })]
        : [],
    ),
  );
  const durations = lastDurations(state.root, state.config, keys, err);
  const list = computeAllowanceList(state.resolutions, state.store.problems, process.platform, durations);
  return values.json ? JSON.stringify(toAllowanceListJson(list), null, 2) : formatAllowanceList(list);
}
