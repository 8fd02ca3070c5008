/**
 * Docs tables are checked against the code (issue 47): each table that lists a closed set (the
 * gate's verdicts, the cause classes and their fixes, triage's classes, the CI providers, the run
 * record's fields, flakeguard.yaml's keys) has a row for every member, and no row for one that is
 * gone; every `--flag` the docs name is an option of a flakeguard command (or its old name), or
 * one of the other tools' flags listed here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ALLOWANCES_USAGE } from '../src/commands/allowances/allowances-options.js';
import { GATE_USAGE } from '../src/commands/gate/gate-args.js';
import {
  HISTORY_INGEST_OPTIONS,
  HISTORY_PRUNE_OPTIONS,
  HISTORY_QUERY_OPTIONS,
} from '../src/commands/history/history-options.js';
import { INIT_USAGE } from '../src/commands/init/init-command.js';
import { QUARANTINE_USAGE } from '../src/commands/quarantine/quarantine-options.js';
import { REPLAY_USAGE } from '../src/commands/replay/replay-args.js';
import { TRIAGE_USAGE } from '../src/commands/triage/triage-options.js';
import { CAUSE_CLASSES, makeCause } from '../src/core/cause/cause.js';
import { CAUSE_RULES } from '../src/core/cause/cause-rules.js';
import { parseConfig } from '../src/core/config.js';
import { GATE_VERDICTS } from '../src/core/gate/gate-report.js';
import { CI_PROVIDERS } from '../src/core/record/ci-context.js';
import { triageOf } from './core/triage/triage-factories.js';
import { readSchema } from './helpers/schema-check.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');

/** The lines of the section that starts at the heading `heading` (up to the next heading of its level or above). */
function section(doc: string, heading: string): string[] {
  const lines = read(doc).split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`${doc} has no heading "${heading}"`);
  const level = heading.indexOf(' ');
  const end = lines.findIndex((l, i) => i > start && /^#+ /.test(l) && l.indexOf(' ') <= level);
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** The first table after `header` (its header line) in those lines: each row's first cell. */
function firstCells(lines: readonly string[], header: RegExp): string[] {
  const at = lines.findIndex((l) => header.test(l));
  if (at < 0) throw new Error(`no table with a header like ${header}`);
  const rows: string[] = [];
  for (const line of lines.slice(at + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.split('|')[1]?.trim() ?? '');
  }
  return rows;
}

/** The names a first cell gives in backticks: "`loadavgStart`, `loadavgEnd`" -> both. */
const namesIn = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');
const firstName = (cell: string): string => namesIn(cell)[0] ?? cell;

describe('the gate docs list the gate code has', () => {
  it('docs/gate.md "Verdicts": one row per verdict, in the order they apply', () => {
    const rows = firstCells(section('docs/gate.md', '## Verdicts'), /^\| verdict \| when \|/).map(firstName);
    expect(rows).toEqual([...GATE_VERDICTS]);
  });

  it('docs/gate.md "Why it is flaky": one rule row per cause class, the one order of the rules, each class with its fix', () => {
    const lines = section('docs/gate.md', '## Why it is flaky: the cause');
    const rules = firstCells(lines, /^\| class \| when \(from the gate's own tries\) \|/).map(firstName);
    expect([...rules].sort()).toEqual([...CAUSE_CLASSES].sort());
    const fixRows = lines.filter((l) => /^\| `[a-z-]+` \| `.*` \|$/.test(l));
    const fixes = Object.fromEntries(fixRows.map((l) => namesIn(l)).map(([cls, fix]) => [cls, fix]));
    const expected = Object.fromEntries(
      CAUSE_CLASSES.map((c) => [c, makeCause(c, 'measured', [], { file: '<place>', line: null }).fix]),
    );
    expect(fixes).toEqual(expected);
    const order = lines.slice(lines.findIndex((l) => /^\| rule \| class \| read by \|/.test(l)) + 2);
    const ruleRows = order
      .slice(
        0,
        order.findIndex((l) => !l.startsWith('|')),
      )
      .map((l) => l.split('|').map((c) => c.trim()));
    expect(ruleRows.map((c) => [firstName(c[1] ?? ''), firstName(c[2] ?? ''), c[3]])).toEqual(
      CAUSE_RULES.map((r) => [r.id, r.class, r.sources.join(', ')]),
    );
    const classRow = lines.find((l) => l.startsWith('| `class` |')) ?? '';
    expect(namesIn(classRow.split(/(?<!\\)\|/)[2] ?? '')).toEqual([...CAUSE_CLASSES]);
  });

  it('docs/history.md "Why a flaky test flakes": only cause classes that exist, ending in unknown', () => {
    const rows = firstCells(section('docs/history.md', '### Why a flaky test flakes'), /^\| class \| when/).map(
      firstName,
    );
    for (const r of rows) expect(CAUSE_CLASSES).toContain(r);
    expect(rows.at(-1)).toBe('unknown');
  });
});

describe('the triage and record docs list what the code has', () => {
  it('docs/triage.md "Classes": one entry per finding class', () => {
    const lines = section('docs/triage.md', '## Classes and how each is decided');
    const listed = lines.flatMap((l) => /^- \*\*([a-z-]+)\*\*:/.exec(l)?.[1] ?? []);
    expect(listed).toEqual(Object.keys(triageOf({}).counts));
  });

  it('docs/run-record.md "ci": one row per CI provider, in the order they are detected', () => {
    const rows = firstCells(section('docs/run-record.md', '## `ci`'), /^\| `provider` \(detected by\)/).map(firstName);
    expect(rows).toEqual([...CI_PROVIDERS]);
  });

  it.each([
    ['## Top level', []],
    ['## `machine`', ['$defs', 'machine']],
    ['## `violations[]`', ['$defs', 'violation']],
    ['## `verdict`', ['properties', 'verdict']],
    ['## `tests[]`', ['$defs', 'test']],
    ['## `files[]`', ['$defs', 'file']],
  ])('docs/run-record.md %s: a row per field of the schema, none it lacks', (heading, at) => {
    const schema = at.reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], readSchema('run-record')) as {
      properties: Record<string, unknown>;
    };
    const rows = firstCells(section('docs/run-record.md', heading), /^\| Field \| Type \| Meaning \|/).flatMap(namesIn);
    expect([...rows].sort()).toEqual(Object.keys(schema.properties).sort());
  });
});

/** Every key path of a YAML value: `budget.test`, `triage.patterns[].match`; a platform map's keys are values, not keys. */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v) => keyPaths(v, `${prefix}[]`));
  if (typeof value !== 'object' || value === null || /^budget\.(test|file)$/.test(prefix)) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => [
    `${prefix}${prefix ? '.' : ''}${k}`,
    ...keyPaths(v, `${prefix}${prefix ? '.' : ''}${k}`),
  ]);
}

/** The key paths the config schema names. */
function schemaPaths(schema: Record<string, unknown>, prefix = ''): string[] {
  const props = (schema['properties'] ?? (schema['items'] as Record<string, unknown> | undefined)?.['properties']) as
    | Record<string, Record<string, unknown>>
    | undefined;
  const here = schema['items'] ? `${prefix}[]` : prefix;
  if (props === undefined || /^budget\.(test|file)$/.test(prefix)) return [];
  return Object.entries(props).flatMap(([k, v]) => {
    const p = `${here}${here ? '.' : ''}${k}`;
    return [p, ...schemaPaths(v, p)];
  });
}

/** The keys flakeguard's parser names when it refuses an unknown one at `where` ("use a, b, c" / "the only key is x"). */
function keysParserNames(text: string): string[] {
  try {
    parseConfig(text, 'flakeguard.yaml');
  } catch (error) {
    const m = /(?:use|the only key is) ([a-zA-Z, ]+)/.exec((error as Error).message);
    return (m?.[1] ?? '').split(', ').map((k) => k.trim());
  }
  throw new Error(`parseConfig took ${text}`);
}

describe("flakeguard.yaml's keys", () => {
  const readmeBlock = (): unknown => {
    const lines = section('README.md', '## Config: `flakeguard.yaml`');
    const start = lines.indexOf('```yaml');
    return parse(lines.slice(start + 1, lines.indexOf('```', start + 1)).join('\n'));
  };
  const leafless = (paths: string[]) => [...new Set(paths.filter((p) => !p.endsWith('[]')))].sort();

  it('README.md "Config" names every key the schema has, and no other', () => {
    const documented = leafless(keyPaths(readmeBlock())).filter((p) => !/\.(test|file)\.[a-z]+$/.test(p));
    const schema = leafless(schemaPaths(readSchema('config'))).filter(
      (p) => !['triage.patterns[].regex', 'triage.patterns[].id'].includes(p),
    );
    expect(documented).toEqual(schema);
  });

  it("the schema's keys are the parser's, level by level", () => {
    const schema = readSchema('config') as { properties: Record<string, { properties?: Record<string, unknown> }> };
    const props = schema.properties;
    expect(keysParserNames('nope: 1').sort()).toEqual(Object.keys(props).sort());
    expect(keysParserNames('budget: { nope: 1 }').sort()).toEqual(
      Object.keys(props['budget']?.properties ?? {}).sort(),
    );
    expect(keysParserNames('gate: { nope: 1 }').sort()).toEqual(Object.keys(props['gate']?.properties ?? {}).sort());
    expect(keysParserNames('triage: { nope: 1 }')).toEqual(Object.keys(props['triage']?.properties ?? {}));
    expect(keysParserNames('history: { nope: 1 }')).toEqual(['url']);
    const pattern = at(props, 'triage', 'properties', 'patterns', 'items', 'properties');
    expect(keysParserNames('triage: { patterns: [{ nope: 1 }] }').sort()).toEqual(Object.keys(pattern).sort());
  });
});

function at(o: unknown, ...keys: string[]): Record<string, unknown> {
  return keys.reduce<unknown>((x, k) => (x as Record<string, unknown>)[k], o) as Record<string, unknown>;
}

/**
 * The flags the docs name that are not a command's option: the CLI's own `--version`, and the
 * flags of the tools the docs show beside flakeguard. A new one here is a deliberate line.
 */
const OTHER_FLAGS: Readonly<Record<string, readonly string[]>> = {
  flakeguard: ['version'],
  vitest: ['merge-reports', 'reporter', 'outputFile', 'retry', 'repeats'],
  node: ['max-old-space-size', 'liftoff-only', 'wasm-tier-up'],
  git: [
    'ancestry-path',
    'name-status',
    'batch',
    'symref',
    'name-only',
    'no-renames',
    'no-tags',
    'depth',
    'unshallow',
    'porcelain',
  ],
  'bench/*.mjs': [
    'rounds',
    'calls',
    'sizes',
    'samples',
    'ingest-tests',
    'ingests',
    'engine',
    'tests',
    'skip-reporter',
    'skip-ingest',
    'skip-postgres',
  ],
};
const OTHER_TOOLS = new Set(Object.values(OTHER_FLAGS).flat());

describe('the flags the docs name', () => {
  it('every `--flag` in README.md and docs/*.md is an option of a flakeguard command, its old name, or another tool’s', () => {
    const own = new Set<string>();
    for (const table of [
      GATE_USAGE.options,
      TRIAGE_USAGE.options,
      ALLOWANCES_USAGE.options,
      QUARANTINE_USAGE.options,
      HISTORY_QUERY_OPTIONS,
      HISTORY_INGEST_OPTIONS,
      HISTORY_PRUNE_OPTIONS,
      INIT_USAGE.options,
      REPLAY_USAGE.options,
    ])
      for (const [name, spec] of Object.entries(table)) {
        own.add(name);
        if (spec.formerly !== undefined) own.add(spec.formerly);
      }
    const docs = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).map((f) => `docs/${f}`)];
    const unknown = docs.flatMap((doc) =>
      [...read(doc).matchAll(/`[^`\n]*`/g)].flatMap((code) =>
        [...(code[0] ?? '').matchAll(/(?<![\w-])--([a-zA-Z][\w-]*)/g)]
          .map((m) => m[1] ?? '')
          .filter((f) => !own.has(f) && !OTHER_TOOLS.has(f))
          .map((f) => `${doc}: --${f}`),
      ),
    );
    expect([...new Set(unknown)]).toEqual([]);
  });
});
