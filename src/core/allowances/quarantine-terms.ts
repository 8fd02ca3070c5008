/**
 * The `quarantine:` map of an entry in an allowance file: why the test is quarantined, a ticket link,
 * and an end date. Parsed from the YAML node (problems name file:line:column) and written back as a
 * plain object for the YAML writer. Pure.
 */
import { isMap, isScalar, type Node } from 'yaml';
import { isIsoDay } from '../calendar.js';

export interface QuarantineTerms {
  readonly reason: string;
  readonly link: string | null;
  /** YYYY-MM-DD (UTC day); null: no end date. */
  readonly expires: string | null;
  /** The test's CODEOWNERS owners when it was quarantined (absent: none recorded). */
  readonly owners?: readonly string[];
}

const QUARANTINE_KEYS = ['reason', 'link', 'expires', 'owners'] as const;

function scalarText(node: unknown): string | null {
  if (!isScalar(node)) return null;
  const v = node.value;
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null;
}

/** The terms, or null after calling `bad` with each problem. */
export function parseQuarantineTerms(
  node: unknown,
  where: (n: Node | null | undefined) => string,
  bad: (message: string) => void,
): QuarantineTerms | null {
  if (!isMap(node)) {
    bad(
      `${where(node as Node)}: quarantine must be a map { reason: <why>, link: <ticket URL>, expires: YYYY-MM-DD, owners: <@team ...> }`,
    );
    return null;
  }
  let ok = true;
  const fail = (message: string): void => {
    ok = false;
    bad(message);
  };
  for (const pair of node.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    if (!(QUARANTINE_KEYS as readonly string[]).includes(key))
      fail(
        `${where(pair.key as Node)}: unknown key "quarantine.${key}"; a quarantine has ${QUARANTINE_KEYS.join(', ')}`,
      );
  }
  const reasonNode = node.get('reason', true) as Node | undefined;
  const reason = scalarText(reasonNode)?.trim() ?? '';
  if (reason === '')
    fail(
      `${where(reasonNode ?? (node as Node))}: quarantine.reason is missing or empty; say why the test is quarantined and who owns the fix`,
    );
  const linkNode = node.get('link', true) as Node | undefined;
  const link = linkNode === undefined ? null : scalarText(linkNode);
  if (linkNode !== undefined && (link === null || link.trim() === ''))
    fail(`${where(linkNode)}: quarantine.link must be text (a ticket URL)`);
  const expiresNode = node.get('expires', true) as Node | undefined;
  const expires = expiresNode === undefined ? null : scalarText(expiresNode);
  if (expiresNode !== undefined && (expires === null || !isIsoDay(expires)))
    fail(`${where(expiresNode)}: quarantine.expires "${expires ?? ''}" is not a date; write YYYY-MM-DD`);
  const ownersNode = node.get('owners', true) as Node | undefined;
  const ownersText = ownersNode === undefined ? '' : scalarText(ownersNode);
  if (ownersText === null)
    fail(`${where(ownersNode)}: quarantine.owners must be text: the owners separated by spaces ("@org/web @dana")`);
  const owners = (ownersText ?? '').split(/\s+/).filter((o) => o !== '');
  return ok ? { reason, link: link?.trim() ?? null, expires, ...(owners.length > 0 ? { owners } : {}) } : null;
}

/** The map written into the entry: keys in a fixed order, absent ones left out. */
export function quarantineTermsToYaml(terms: QuarantineTerms): Record<string, string> {
  return {
    reason: terms.reason,
    ...(terms.link === null ? {} : { link: terms.link }),
    ...(terms.expires === null ? {} : { expires: terms.expires }),
    ...(terms.owners === undefined || terms.owners.length === 0 ? {} : { owners: terms.owners.join(' ') }),
  };
}
