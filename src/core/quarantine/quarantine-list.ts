/**
 * `flakeguard quarantine list` and `check`: every quarantine with the test it applies to now and its
 * state on `today` (applies, expired, orphan, ambiguous). check fails on the ones that need a person.
 * Pure.
 */
import { formatWhere } from '../allowances/allowance.js';
import type { Resolution } from '../allowances/allowance-resolve.js';
import { formatOwners, hasOwner, NO_OWNERS, type OwnersOf } from '../owners/codeowners.js';
import type { TestRef } from '../test-id.js';
import { escapeTerminal as esc } from '../untrusted-text.js';
import { describeQuarantine, toRunQuarantine } from './run-quarantine.js';

/** 2: a quarantine's full name is `fullName` (was `test`). */
const QUARANTINE_LIST_VERSION = 2 as const;
const QUARANTINE_LIST_FORMAT = 'flakeguard-quarantine-list' as const;

type QuarantineState = 'applies' | 'expired' | 'orphan' | 'ambiguous';

/** One quarantine; its test is the one it applies to now, else the name and file the entry stores. */
export interface QuarantineRow extends TestRef {
  readonly id: string;
  readonly where: string;
  readonly match: Resolution['match']['kind'];
  readonly state: QuarantineState;
  readonly reason: string;
  readonly link: string | null;
  readonly expires: string | null;
  /** The owners recorded when it was quarantined; for an entry that recorded none, its file's owners now. */
  readonly owners: readonly string[];
}

export function computeQuarantineList(
  resolutions: readonly Resolution[],
  today: string,
  ownersOf: OwnersOf = NO_OWNERS,
): QuarantineRow[] {
  return resolutions.flatMap((r): QuarantineRow[] => {
    const a = r.allowance;
    if (a.quarantine === null) return [];
    const q = toRunQuarantine(a.id, a.quarantine, today);
    const kind = r.match.kind;
    const state: QuarantineState =
      kind === 'orphan' ? 'orphan' : kind === 'ambiguous' ? 'ambiguous' : q.expired ? 'expired' : 'applies';
    const current = r.test
      ? { fullName: r.test.namePattern ? a.fullName : r.test.fullName, file: r.test.file }
      : { fullName: a.fullName, file: a.file };
    const owners = a.quarantine.owners ?? ownersOf(current.file);
    return [
      {
        id: a.id,
        where: formatWhere(a),
        ...current,
        match: kind,
        state,
        reason: q.reason,
        link: q.link,
        expires: q.expires,
        owners,
      },
    ];
  });
}

/** `quarantine list --owner`: the quarantines this owner owns. */
/** `quarantine list --json` (schemas/quarantine-list.schema.json): the rows as they are (version 2: `fullName`). */
export function toQuarantineListJson(rows: readonly QuarantineRow[], today: string): QuarantineListJson {
  return { format: QUARANTINE_LIST_FORMAT, version: QUARANTINE_LIST_VERSION, today, quarantines: rows };
}

export interface QuarantineListJson {
  readonly format: typeof QUARANTINE_LIST_FORMAT;
  readonly version: typeof QUARANTINE_LIST_VERSION;
  /** The day each quarantine's expiry was judged on (YYYY-MM-DD). */
  readonly today: string;
  readonly quarantines: readonly QuarantineRow[];
}

export function filterQuarantinesByOwner(rows: readonly QuarantineRow[], owner: string): QuarantineRow[] {
  return rows.filter((r) => hasOwner(r.owners, owner));
}

export function formatQuarantineList(rows: readonly QuarantineRow[], today: string): string {
  if (rows.length === 0) return 'No quarantined tests.\n';
  const lines: string[] = [];
  for (const row of rows) {
    const q = {
      id: row.id,
      reason: row.reason,
      link: row.link,
      expires: row.expires,
      expired: row.state === 'expired',
    };
    lines.push(`${row.id}  ${esc(row.fullName)}  (${esc(row.file)})`);
    const state =
      row.state === 'orphan'
        ? 'ORPHAN: no test matches'
        : row.state === 'ambiguous'
          ? 'AMBIGUOUS: applies to none'
          : row.state === 'expired'
            ? `EXPIRED (today is ${today})`
            : 'applies';
    lines.push(`    ${state} · ${esc(describeQuarantine(q))}`);
    if (row.owners.length > 0) lines.push(`    ${esc(formatOwners(row.owners))}`);
    lines.push(`    ${row.where}`);
  }
  return `${lines.join('\n')}\n`;
}

/** One line per quarantine that needs a person: no test, two tests, or past its end date. */
export function computeQuarantineFindings(rows: readonly QuarantineRow[]): string[] {
  return rows.flatMap((row) => {
    switch (row.state) {
      case 'orphan':
        return [
          `${row.where}: quarantine ${row.id} has no test: "${esc(row.fullName)}" (${esc(row.file)}) is gone; remove it (flakeguard quarantine remove --id ${row.id}) or run flakeguard allowances migrate after a rename`,
        ];
      case 'ambiguous':
        return [`${row.where}: quarantine ${row.id} fits more than one test; it applies to none until one is renamed`];
      case 'expired':
        return [
          `${row.where}: quarantine ${row.id} of "${esc(row.fullName)}" expired on ${row.expires ?? '?'}; the test fails runs again: fix it, or renew the date on purpose`,
        ];
      case 'applies':
        return [];
      default: {
        const never: never = row.state;
        return never;
      }
    }
  });
}
