/**
 * `flakeguard allowances list` and `check`: each allowance with the test it applies to now, how it
 * was matched, its limit on this platform and the test's last measured duration; and the findings
 * that need a person (orphans, expired, ambiguous, invalid, duplicate ids).
 */

import { formatDuration } from '../duration.js';
import { resolvePlatformValue } from '../platform-value.js';
import type { TestRef } from '../test-id.js';
import { escapeTerminal as esc } from '../untrusted-text.js';
import { type AllowanceProblem, formatWhere } from './allowance.js';
import { allowanceKey } from './allowance-match.js';
import {
  formatFollowNotice,
  formatProblem,
  formatResolutionWarning,
  type Resolution,
  type UniverseTest,
} from './allowance-resolve.js';
import { serializeBudget } from './allowance-serialize.js';

/** 2: a test's full name is `fullName` (was `test`) in `stored` and `current`. */
const ALLOWANCE_LIST_VERSION = 2 as const;
const ALLOWANCE_LIST_FORMAT = 'flakeguard-allowance-list' as const;

export interface AllowanceRow {
  readonly id: string;
  /** storeFile:line:column of the entry. */
  readonly where: string;
  readonly stored: TestRef;
  /** The test it applies to now; null when orphan or ambiguous. */
  readonly current: TestRef | null;
  readonly match: Resolution['match']['kind'];
  readonly expired: boolean;
  readonly expires: string | null;
  readonly budget: string;
  /** The limit on this platform, or null when the per-platform map has no entry for it (the budget applies). */
  readonly limitMs: number | null;
  readonly lastMs: number | null;
  readonly reason: string;
}

export interface AllowanceList {
  readonly version: typeof ALLOWANCE_LIST_VERSION;
  readonly platform: string;
  readonly allowances: readonly AllowanceRow[];
  readonly problems: readonly {
    readonly kind: AllowanceProblem['kind'];
    readonly where: string;
    readonly message: string;
  }[];
}

export function computeAllowanceList(
  resolutions: readonly Resolution[],
  problems: readonly AllowanceProblem[],
  platform: string,
  lastDurations: ReadonlyMap<string, number>,
): AllowanceList {
  // A quarantine-only entry is not an allowance: `flakeguard quarantine list` shows it.
  const budgeted = resolutions.flatMap((r) => (r.allowance.budget === null ? [] : [{ r, budget: r.allowance.budget }]));
  const allowances = budgeted.map(({ r, budget }): AllowanceRow => {
    const a = r.allowance;
    const current = r.test ? { fullName: r.test.namePattern ? a.fullName : r.test.fullName, file: r.test.file } : null;
    return {
      id: a.id,
      where: formatWhere(a),
      stored: { fullName: a.fullName, file: a.file },
      current,
      match: r.match.kind,
      expired: r.expired,
      expires: a.expires,
      budget: serializeBudget(budget),
      limitMs: resolvePlatformValue(budget, platform)?.value ?? null,
      lastMs: current ? (lastDurations.get(allowanceKey(current)) ?? null) : null,
      reason: a.reason,
    };
  });
  return {
    version: ALLOWANCE_LIST_VERSION,
    platform,
    allowances,
    problems: problems.map((p) => ({ kind: p.kind, where: p.where, message: p.message })),
  };
}

/** `allowances list --json` (schemas/allowance-list.schema.json): the list as it is (version 2: `fullName`), naming its format. */
export function toAllowanceListJson(list: AllowanceList): AllowanceListJson {
  return { format: ALLOWANCE_LIST_FORMAT, ...list };
}

export type AllowanceListJson = AllowanceList & { readonly format: typeof ALLOWANCE_LIST_FORMAT };

export function formatAllowanceList(list: AllowanceList): string {
  if (list.allowances.length === 0 && list.problems.length === 0) return 'No allowances.\n';
  const lines: string[] = [];
  for (const row of list.allowances) {
    const target = row.current ?? row.stored;
    lines.push(`${row.id}  ${esc(target.fullName)}  (${esc(target.file)})`);
    const limit =
      row.limitMs === null
        ? `no limit for ${list.platform} in ${row.budget}: the budget applies`
        : `limit ${formatDuration(row.limitMs)}`;
    const last = row.lastMs === null ? 'last: not measured' : `last ${formatDuration(row.lastMs)}`;
    const how =
      row.match === 'exact'
        ? 'exact'
        : row.match === 'orphan'
          ? 'ORPHAN: no test matches'
          : row.match === 'ambiguous'
            ? 'AMBIGUOUS: applies to none'
            : `${row.match} from "${esc(row.stored.fullName)}" (${esc(row.stored.file)})`;
    const expiry = row.expired ? ` · EXPIRED ${row.expires}` : row.expires ? ` · expires ${row.expires}` : '';
    lines.push(`    ${how} · ${limit} · ${last}${expiry}`);
    lines.push(`    ${row.where} · ${esc(row.reason)}`);
  }
  for (const p of list.problems) lines.push(`${p.where}: ${esc(p.message)}`);
  return `${lines.join('\n')}\n`;
}

export interface AllowanceCheck {
  readonly findings: readonly string[];
  /** Allowances that apply through a rename or move: `migrate` would record the new name. */
  readonly followed: readonly string[];
}

export function computeAllowanceCheck(
  resolutions: readonly Resolution[],
  problems: readonly AllowanceProblem[],
  universe: readonly UniverseTest[],
  sourceProblems: readonly string[],
  lineageNotes: readonly string[] = [],
): AllowanceCheck {
  const findings = [
    ...problems.map(formatProblem),
    ...sourceProblems,
    ...resolutions.map((r) => formatResolutionWarning(r, universe)).filter((w) => w !== ''),
  ];
  const followed = [...lineageNotes, ...resolutions.map(formatFollowNotice).filter((n) => n !== '')];
  return { findings, followed };
}

export function formatAllowanceCheck(check: AllowanceCheck, total: number): string {
  const lines = [...check.findings];
  for (const f of check.followed) lines.push(`note: ${f}`);
  lines.push(
    check.findings.length === 0
      ? `${total} allowance${total === 1 ? '' : 's'} checked: no problems.`
      : `${check.findings.length} problem${check.findings.length === 1 ? '' : 's'} in ${total} allowance${total === 1 ? '' : 's'}.`,
  );
  return `${lines.join('\n')}\n`;
}
