/**
 * Maps a path written on another machine (a CI runner's `/home/runner/work/app/app/test/x.test.ts`)
 * onto the local project root: the longest suffix of the path that exists under the root wins.
 * Pure: the caller passes `exists(relativePath)`.
 */

export interface MappedPath {
  /** Relative to the root with `/` when mapped; else the input with `/` separators. */
  readonly path: string;
  readonly mapped: boolean;
}

import { CI_CHECKOUT_PREFIXES } from '../record/ci-context.js';

function normalise(p: string): string {
  return p.replace(/\\/g, '/').replace(/^file:\/\//, '');
}

export function mapPathOntoRoot(input: string, root: string, exists: (relative: string) => boolean): MappedPath {
  const p = normalise(input);
  const r = normalise(root).replace(/\/+$/, '');
  const isAbsolute = p.startsWith('/') || /^[A-Za-z]:\//.test(p);
  if (!isAbsolute) {
    const rel = p.replace(/^(\.\/)+/, '');
    return { path: rel, mapped: true };
  }
  if (r !== '' && p.startsWith(`${r}/`)) return { path: p.slice(r.length + 1), mapped: true };
  const segments = p.split('/').filter((s) => s !== '' && !/^[A-Za-z]:$/.test(s));
  for (let i = 0; i < segments.length; i += 1) {
    const suffix = segments.slice(i).join('/');
    if (exists(suffix)) return { path: suffix, mapped: true };
  }
  // The folder layouts of CI runners (each provider's row), when no suffix exists here (no checkout).
  for (const prefix of CI_CHECKOUT_PREFIXES) {
    const m = prefix.exec(p);
    if (m) return { path: p.slice(m[0].length), mapped: false };
  }
  return { path: p, mapped: false };
}
