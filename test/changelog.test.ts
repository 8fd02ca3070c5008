/**
 * Versions have a changelog (issue 47): every `*_VERSION = <n>` constant in src/ has a CHANGELOG.md
 * line naming it with its value (`` `GATE_REPORT_VERSION` 5 → 6 ``) and a row in docs/formats.md
 * with that value; the package's version has its section, and the package ships the changelog.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const read = (rel: string): string => readFileSync(path.join(ROOT, rel), 'utf8');

interface VersionConstant {
  readonly name: string;
  readonly value: number;
  readonly file: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
  );
}

/** `const NAME_VERSION = 3` or `export const NAME_VERSION = 3 as const`, anywhere in src/. */
function versionConstants(): VersionConstant[] {
  return sourceFiles('src').flatMap((file) =>
    [...read(file).matchAll(/^(?:export )?const ([A-Z][A-Z0-9_]*_VERSION) = (\d+)(?: as const)?;/gm)].map((m) => ({
      name: m[1] ?? '',
      value: Number(m[2]),
      file,
    })),
  );
}

/** A line naming the constant in backticks with the value, alone or as the new value of `old → new`. */
const namesValue = (text: string, c: VersionConstant): boolean =>
  text.split('\n').some((line) => new RegExp(`\`${c.name}\` (?:\\d+ → )?${c.value}(?!\\d| →)`).test(line));

describe('format versions and the changelog', () => {
  const constants = versionConstants();
  const changelog = read('CHANGELOG.md');
  const formats = read('docs/formats.md');

  it('finds the version constants, each name once', () => {
    expect(constants.map((c) => c.name)).toEqual(expect.arrayContaining(['RUN_RECORD_VERSION', 'GATE_REPORT_VERSION']));
    const names = constants.map((c) => c.name);
    expect(
      names.filter((n, i) => names.indexOf(n) !== i),
      'two constants share a name: rename one',
    ).toEqual([]);
  });

  it('names every constant with its value in CHANGELOG.md', () => {
    const missing = constants
      .filter((c) => !namesValue(changelog, c))
      .map(
        (c) => `${c.file}: ${c.name} = ${c.value} has no CHANGELOG.md line "\`${c.name}\` ${c.value - 1} → ${c.value}"`,
      );
    expect(missing).toEqual([]);
  });

  it('has a docs/formats.md row for every constant, with its value', () => {
    const rows = formats.split('\n').filter((l) => l.startsWith('|'));
    const missing = constants
      .filter(
        (c) =>
          !rows.some(
            (r) => r.includes(`\`${c.name}\``) && r.split('|').some((cell) => cell.trim() === String(c.value)),
          ),
      )
      .map((c) => `${c.name} = ${c.value}`);
    expect(missing).toEqual([]);
  });

  it('has a section for the package version, ships the changelog and the schemas', () => {
    const pkg = JSON.parse(read('package.json')) as {
      version: string;
      files: string[];
      exports: Record<string, unknown>;
    };
    expect(changelog).toContain(`\n## ${pkg.version}\n`);
    expect(pkg.version).not.toBe('0.1.0');
    expect(pkg.files).toEqual(expect.arrayContaining(['CHANGELOG.md', 'schemas']));
    expect(pkg.exports['./schemas/*']).toBe('./schemas/*');
  });

  it('reads a line the way the check means it', () => {
    const c = { name: 'X_VERSION', value: 6, file: 'src/x.ts' };
    expect(namesValue('- X (`X_VERSION` 5 → 6): renamed', c)).toBe(true);
    expect(namesValue('- X (`X_VERSION` 1, new)', { ...c, value: 1 })).toBe(true);
    expect(namesValue('- X (`X_VERSION` 6 → 7)', c)).toBe(false);
    expect(namesValue('- X (`X_VERSION` 60)', c)).toBe(false);
  });
});
