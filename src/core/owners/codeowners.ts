/**
 * A CODEOWNERS file (GitHub's and GitLab's) parsed once, and the owners of a path. Within a section
 * the last matching pattern wins, and a pattern with no owners leaves its paths unowned. GitLab's
 * sections (`[Name]`, `^[Optional]`, `[Name][2] @default-owner`) are each matched on their own and
 * their owners combined; an entry without owners takes its section's default owners; sections of the
 * same name are one section. A GitHub file is one unnamed section. Pure: the edge reads the file.
 */
import { escapeTerminal } from '../untrusted-text.js';
import {
  type CodeownersPattern,
  compileCodeownersPattern,
  patternMatches,
  type RepoPath,
} from './codeowners-pattern.js';

interface CodeownersRule {
  readonly pattern: CodeownersPattern;
  /** Owners as written: `@user`, `@org/team`, an e-mail address. Empty: the paths have no owner. */
  readonly owners: readonly string[];
  /** GitLab's exclusion (`!path`): the section gives the paths no owner. */
  readonly excluded: boolean;
  readonly line: number;
}

interface CodeownersSection {
  /** Null for the rules before any section header (all of a GitHub file). */
  readonly name: string | null;
  readonly defaultOwners: readonly string[];
  readonly rules: readonly CodeownersRule[];
}

export interface Codeowners {
  /** The file it came from, relative to the repository root (`.github/CODEOWNERS`). */
  readonly file: string;
  readonly sections: readonly CodeownersSection[];
}

/** The owners of the test files a report names, by the file's path relative to the project root. */
export type OwnersOf = (file: string) => readonly string[];

export const NO_OWNERS: OwnersOf = () => [];

const SECTION = /^\^?\[([^\]]+)\](?:\[\d+\])?(.*)$/;

/** Splits on unescaped whitespace; a token that starts with `#` starts a comment. */
function tokens(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/(?:\\.|\S)+/g)) {
    if (m[0].startsWith('#')) break;
    out.push(m[0]);
  }
  return out;
}

export function parseCodeowners(text: string, file: string): Codeowners {
  const sections: { name: string | null; defaultOwners: string[]; rules: CodeownersRule[] }[] = [];
  let current = { name: null as string | null, defaultOwners: [] as string[], rules: [] as CodeownersRule[] };
  sections.push(current);
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const header = SECTION.exec(line);
    if (header) {
      const name = (header[1] ?? '').trim();
      const same = sections.find((s) => s.name !== null && s.name.toLowerCase() === name.toLowerCase());
      current = same ?? { name, defaultOwners: [], rules: [] };
      if (!same) sections.push(current);
      const defaults = tokens(header[2] ?? '');
      if (defaults.length > 0) current.defaultOwners = defaults;
      return;
    }
    const [first = '', ...owners] = tokens(line);
    const excluded = first.startsWith('!');
    const pattern = compileCodeownersPattern(excluded ? first.slice(1) : first);
    if (pattern !== null) current.rules.push({ pattern, owners, excluded, line: index + 1 });
  });
  return { file, sections: sections.filter((s) => s.rules.length > 0) };
}

function sectionOwners(section: CodeownersSection, path: RepoPath): readonly string[] {
  for (let i = section.rules.length - 1; i >= 0; i -= 1) {
    const rule = section.rules[i];
    if (rule === undefined || !patternMatches(rule.pattern, path)) continue;
    if (rule.excluded) return [];
    // GitLab fills an entry without owners from its section's defaults; GitHub has none, so it stays unowned.
    return rule.owners.length > 0 ? rule.owners : section.defaultOwners;
  }
  return [];
}

/** The owners of one path: each section's last matching rule, combined in the file's order, each owner once. */
export function ownersOfPath(codeowners: Codeowners, path: RepoPath): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const section of codeowners.sections) {
    for (const owner of sectionOwners(section, path)) {
      const key = owner.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(owner);
    }
  }
  return out;
}

/** `@org/team`, `org/team` and `@ORG/Team` are one owner; an e-mail address is compared as written, case aside. */
function normalizeOwner(owner: string): string {
  const lower = owner.trim().toLowerCase();
  return lower.startsWith('@') || lower.includes('@') ? lower : `@${lower}`;
}

/** True when `wanted` (an `--owner` value) is one of `owners`. */
export function hasOwner(owners: readonly string[], wanted: string): boolean {
  const target = normalizeOwner(wanted);
  return owners.some((o) => normalizeOwner(o) === target);
}

/** `owners: @org/web @ana`, or the empty string when the test has none (no CODEOWNERS: no noise). */
export function formatOwners(owners: readonly string[] | undefined): string {
  // Owners come from the repository's CODEOWNERS: untrusted text on a terminal.
  return owners === undefined || owners.length === 0 ? '' : `owners: ${escapeTerminal(owners.join(' '))}`;
}
