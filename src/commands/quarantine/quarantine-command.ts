/**
 * `flakeguard quarantine add|list|check|remove`. Exit codes: 0 done / clean, 1 `check` found
 * problems, 2 could not run (usage, config).
 */
import {
  computeQuarantineFindings,
  computeQuarantineList,
  filterQuarantinesByOwner,
  formatQuarantineList,
  type QuarantineRow,
  toQuarantineListJson,
} from '../../core/quarantine/quarantine-list.js';
import { gatherAllowanceState } from '../../io/allowances/allowances-state.js';
import { requireFilesNotFolders } from '../../io/files/input-file.js';
import { type ProjectOwners, readProjectOwners, requireCodeownersFor } from '../../io/owners/codeowners-file.js';
import { addQuarantine, removeQuarantine } from '../../io/quarantine/quarantine-write.js';
import { commandUsageError, type ParsedValues, parseSubcommand } from '../command-args.js';
import { QUARANTINE_SUBCOMMANDS, QUARANTINE_USAGE } from './quarantine-options.js';

const COMMAND = 'flakeguard quarantine';
type Values = ParsedValues<typeof QUARANTINE_USAGE.options>;

const out = (text: string): void => void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);

function required(values: Values, key: 'file' | 'test' | 'reason' | 'id', sub: string): string {
  const value = values[key];
  if (typeof value !== 'string' || value.trim() === '')
    throw commandUsageError(COMMAND, `quarantine ${sub} needs --${key}`);
  return value;
}

export async function runQuarantineCommand(args: string[]): Promise<number> {
  const parsed = parseSubcommand(COMMAND, QUARANTINE_USAGE, QUARANTINE_SUBCOMMANDS, args);
  if (parsed === 'help') return 0;
  const { sub, values } = parsed;
  if (sub === 'add') {
    required(values, 'reason', sub);
    // Before the file is read: a folder is named as the --file it is, not as "a path (read)".
    requireFilesNotFolders('--file', [required(values, 'file', sub)]);
  }
  const cwd = process.cwd();
  const state = await gatherAllowanceState(cwd);
  const owners = readProjectOwners(state.root);
  const rows = computeQuarantineList(state.resolutions, state.today, owners.ownersOf);
  switch (sub) {
    case 'add':
      out(
        addQuarantine(
          state,
          {
            file: required(values, 'file', sub),
            fullName: required(values, 'test', sub),
            reason: required(values, 'reason', sub),
            expires: values.expires,
            link: values.link,
          },
          cwd,
        ),
      );
      return 0;
    case 'list':
      out(runList(rows, values, owners, state.today));
      return 0;
    case 'check': {
      const findings = computeQuarantineFindings(rows);
      out(formatCheck(findings, rows.length));
      return findings.length > 0 ? 1 : 0;
    }
    case 'remove':
      out(removeQuarantine(state, required(values, 'id', sub)));
      return 0;
    default:
      throw commandUsageError(COMMAND, `unknown subcommand "${sub}"`);
  }
}

/** quarantine list: the quarantines (of --owner's tests), as text or --json. */
function runList(rows: readonly QuarantineRow[], values: Values, owners: ProjectOwners, today: string): string {
  // Entries record their owners, so --owner works on them even after CODEOWNERS is gone.
  const recorded = rows.some((r) => r.owners.length > 0);
  if (!recorded) requireCodeownersFor(values.owner, owners, 'flakeguard quarantine list');
  const shown = values.owner === undefined ? rows : filterQuarantinesByOwner(rows, values.owner);
  return values.json ? JSON.stringify(toQuarantineListJson(shown, today), null, 2) : formatQuarantineList(shown, today);
}

/** quarantine check: each problem, then how many quarantines were checked. */
function formatCheck(findings: readonly string[], checked: number): string {
  return [
    ...findings,
    findings.length === 0
      ? `${checked} quarantine${checked === 1 ? '' : 's'} checked: no problems.`
      : `${findings.length} problem${findings.length === 1 ? '' : 's'} in ${checked} quarantine${checked === 1 ? '' : 's'}.`,
  ].join('\n');
}
