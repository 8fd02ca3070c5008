/**
 * One CODEOWNERS pattern as a matcher, with the rules GitHub documents (gitignore's, with two
 * differences): a pattern with a `/` at its start or in its middle is anchored to the repository
 * root, else it matches at any depth; `*` and `?` stay inside one path segment, `**` crosses them; a
 * pattern matches a path and everything under it (a folder), except that a last segment of `*`
 * matches only the folder's own files (`docs/*` owns `docs/a.md`, not `docs/x/b.md`); a trailing `/`
 * matches only a folder. Character ranges and `!` negation are not GitHub syntax: `[` is literal.
 * Pure.
 */

/** A path relative to the repository root, with `/` and no leading `/`. */
export type RepoPath = string;

export interface CodeownersPattern {
  readonly text: string;
  readonly regex: RegExp;
}

const escapeChar = (c: string): string => (/[.+^${}()|[\]\\]/.test(c) ? `\\${c}` : c);

/** The glob of one or more segments as a regular expression (no anchors). */
function globToRegex(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i += 1) {
    const c = glob[i] ?? '';
    if (c === '*' && glob[i + 1] === '*') {
      const before = i === 0 || glob[i - 1] === '/';
      const after = glob[i + 2];
      if (before && after === '/') {
        out += '(?:[^/]*/)*';
        i += 2;
      } else if (before && after === undefined) {
        out += '.*';
        i += 1;
      } else {
        out += '[^/]*';
        i += 1;
      }
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '\\' && i + 1 < glob.length) {
      out += escapeChar(glob[i + 1] ?? '');
      i += 1;
    } else out += escapeChar(c);
  }
  return out;
}

/** Null when the pattern matches nothing at all (empty, or only slashes). */
export function compileCodeownersPattern(text: string): CodeownersPattern | null {
  const folderOnly = text.endsWith('/');
  const trimmed = text.replace(/^\/+/, '').replace(/\/+$/, '');
  if (trimmed === '') return text.startsWith('/') ? { text, regex: /^.+$/ } : null;
  const anchored = text.startsWith('/') || trimmed.includes('/');
  const lastSegment = trimmed.split('/').at(-1);
  const body = globToRegex(trimmed);
  const start = anchored || trimmed.startsWith('**/') ? '^' : '^(?:[^/]*/)*';
  const end = folderOnly ? '/.+$' : lastSegment === '*' ? '$' : '(?:/.+)?$';
  return { text, regex: new RegExp(`${start}${body}${end}`) };
}

export function patternMatches(pattern: CodeownersPattern, path: RepoPath): boolean {
  return pattern.regex.test(path);
}
