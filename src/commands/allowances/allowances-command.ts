/**
 * `flakeguard allowances add|list|check|prune|migrate`. Exit codes: 0 done / clean, 1 `check`
 * found problems, 2 could not run (usage, config).
 */
import { parseArgs } from 'node:util';
import { computeAllowanceCheck, computeAllowanceList, formatAllowanceCheck, formatAllowanceList } from '../../core/allowances/allowance-list.js';
import { FlakeguardError } from '../../core/errors.js';
import { gatherAllowanceState, lastDurations } from './allowances-state.js';
import { addAllowance, migrateAllowances, pruneAllowances } from './allowances-write.js';
import { testKey } from '../../core/test-id.js';

const USAGE = `Usage:
  flakeguard allowances add --file <test file> --test "<full name>" --budget <duration> [--platform <p>] --reason "<text>" [--expires YYYY-MM-DD]
  flakeguard allowances list [--json]
  flakeguard allowances check
  flakeguard allowances prune [--dry-run]
  flakeguard allowances migrate [--dry-run]

Allowances live in allowances/<test file>.yaml next to the config; see docs/allowances.md.
Exit codes: 0 done, 1 check found problems, 2 could not run.`;

const OPTIONS = {
  file: { type: 'string' },
  test: { type: 'string' },
  budget: { type: 'string' },
  platform: { type: 'string' },
  reason: { type: 'string' },
  expires: { type: 'string' },
  json: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const ALLOWED: Record<string, readonly string[]> = {
  add: ['file', 'test', 'budget', 'platform', 'reason', 'expires'],
  list: ['json'],
  check: [],
  prune: ['dry-run'],
  migrate: ['dry-run'],
};

const out = (text: string): void => void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
const err = (text: string): void => void process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);

function parse(args: string[]): { sub: string; values: Record<string, string | boolean | undefined> } {
  let parsed;
  try {
    parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new FlakeguardError('USAGE', `${(error as Error).message}\n${USAGE}`);
  }
  const [sub, ...extra] = parsed.positionals;
  if (parsed.values.help) return { sub: 'help', values: {} };
  if (sub === undefined || !(sub in ALLOWED)) {
    throw new FlakeguardError('USAGE', `${sub === undefined ? 'name a subcommand' : `unknown subcommand "${sub}"`}\n${USAGE}`);
  }
  if (extra.length > 0) throw new FlakeguardError('USAGE', `unexpected argument "${extra[0]}"; quote a test name that has spaces\n${USAGE}`);
  const allowed = ALLOWED[sub] ?? [];
  for (const key of Object.keys(parsed.values)) {
    if (!allowed.includes(key)) throw new FlakeguardError('USAGE', `--${key} does not apply to "allowances ${sub}"\n${USAGE}`);
  }
  return { sub, values: parsed.values };
}

function required(values: Record<string, string | boolean | undefined>, key: string): string {
  const value = values[key];
  if (typeof value !== 'string' || value.trim() === '') throw new FlakeguardError('USAGE', `allowances add needs --${key}\n${USAGE}`);
  return value;
}

export async function runAllowancesCommand(args: string[]): Promise<number> {
  const { sub, values } = parse(args);
  if (sub === 'help') {
    out(USAGE);
    return 0;
  }
  const cwd = process.cwd();
  const state = await gatherAllowanceState(cwd);
  switch (sub) {
    case 'add': {
      const line = addAllowance(
        state,
        {
          file: required(values, 'file'),
          test: required(values, 'test'),
          budget: required(values, 'budget'),
          reason: required(values, 'reason'),
          platform: typeof values['platform'] === 'string' ? values['platform'] : undefined,
          expires: typeof values['expires'] === 'string' ? values['expires'] : undefined,
        },
        cwd,
      );
      out(line);
      return 0;
    }
    case 'list': {
      const keys = new Set(state.resolutions.flatMap((r) => (r.test ? [testKey(r.test.file, r.test.namePattern ? r.allowance.test : r.test.fullName)] : [])));
      const durations = lastDurations(state.root, state.config.records, keys, err);
      const list = computeAllowanceList(state.resolutions, state.store.problems, process.platform, durations);
      out(values['json'] ? JSON.stringify(list, null, 2) : formatAllowanceList(list));
      return 0;
    }
    case 'check': {
      const check = computeAllowanceCheck(state.resolutions, state.store.problems, state.universe, state.sourceProblems, state.lineageNotes);
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
      throw new FlakeguardError('USAGE', USAGE);
  }
}
