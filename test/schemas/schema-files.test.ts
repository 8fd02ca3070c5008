/**
 * The shipped schemas themselves (issue 47): each compiles under Ajv's strict mode as JSON Schema
 * 2020-12 with its own `$id`; the YAML files people write (this repository's flakeguard.yaml and
 * allowance files, the example's, init's template) validate against theirs, and the schema refuses
 * what flakeguard's own parser refuses; each enum a schema lists is the one the code has.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CAUSE_CLASSES } from '../../src/core/cause/cause.js';
import { parseConfig } from '../../src/core/config.js';
import { CONFIG_SCHEMA_LINE, renderConfigTemplate } from '../../src/core/config-template.js';
import { GATE_VERDICTS } from '../../src/core/gate/gate-report.js';
import { PLATFORMS } from '../../src/core/platform-value.js';
import { CI_PROVIDERS } from '../../src/core/record/ci-context.js';
import { triageOf } from '../core/triage/triage-factories.js';
import { readSchema, schemaErrors, schemaNames } from '../helpers/schema-check.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

function yamlFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? yamlFiles(`${dir}/${e.name}`) : e.name.endsWith('.yaml') ? [`${dir}/${e.name}`] : [],
  );
}

const readYaml = (rel: string): unknown => parse(readFileSync(path.join(ROOT, rel), 'utf8'));

/** The value at a JSON pointer-like path of $defs and properties. */
function at(schema: unknown, ...keys: string[]): unknown {
  return keys.reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], schema);
}

describe('the shipped schemas', () => {
  it('are the nine outputs and files, each 2020-12 with its own $id, compiling in strict mode', () => {
    expect(schemaNames()).toEqual([
      'allowance-list',
      'allowances',
      'config',
      'gate-plan',
      'gate-report',
      'history-report',
      'quarantine-list',
      'run-record',
      'triage',
    ]);
    for (const name of schemaNames()) {
      const schema = readSchema(name);
      expect(schema['$schema']).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(schema['$id']).toBe(`urn:flakeguard:schema:${name}`);
      expect(schemaErrors(name, null)).not.toEqual([]);
    }
  });

  it("list the code's own enums: verdicts, cause classes, CI providers, finding classes, platforms", () => {
    expect(at(readSchema('gate-report'), '$defs', 'verdict', 'enum')).toEqual([...GATE_VERDICTS]);
    expect(Object.keys(at(readSchema('gate-report'), 'properties', 'counts', 'properties') as object)).toEqual([
      ...GATE_VERDICTS,
    ]);
    for (const name of ['gate-report', 'triage', 'history-report'])
      expect(at(readSchema(name), '$defs', 'cause', 'properties', 'class', 'enum')).toEqual([...CAUSE_CLASSES]);
    expect(at(readSchema('run-record'), '$defs', 'ci', 'properties', 'provider', 'enum')).toEqual([...CI_PROVIDERS]);
    const findingClasses = Object.keys(triageOf({}).counts);
    expect(at(readSchema('triage'), '$defs', 'finding', 'properties', 'class', 'enum')).toEqual(findingClasses);
    const budget = at(readSchema('config'), 'properties', 'budget', 'properties', 'test', 'anyOf') as unknown[];
    expect(at(budget[1], 'propertyNames', 'enum')).toEqual([...PLATFORMS, 'default']);
  });
});

describe('the YAML files people write', () => {
  it("validate: this repository's and the example's allowance files", () => {
    const files = [...yamlFiles('allowances'), ...yamlFiles('example/allowances')];
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) expect(schemaErrors('allowances', readYaml(file)), file).toEqual([]);
  });

  it("validate: this repository's and the example's flakeguard.yaml, init's template and every key at once", () => {
    for (const file of ['flakeguard.yaml', 'example/flakeguard.yaml'])
      expect(schemaErrors('config', readYaml(file)), file).toEqual([]);
    const template = renderConfigTemplate();
    expect(template.split('\n')[0]).toBe(CONFIG_SCHEMA_LINE);
    expect(schemaErrors('config', parse(template))).toEqual([]);
    const everyKey = [
      'budget: { test: { linux: 5s, default: 4s }, file: 60s, warnAt: 80% }',
      'allowances: allowances',
      'records: .flakeguard/runs',
      'history: { url: postgres://u@h/db }',
      'gate: { slowdown: auto, fragile: block }',
      'triage:',
      '  patterns:',
      '    - { match: "database is starting up", regex: false, class: infrastructure, cause: db, action: wait, id: db }',
    ].join('\n');
    expect(() => parseConfig(everyKey, 'flakeguard.yaml')).not.toThrow();
    expect(schemaErrors('config', parse(everyKey))).toEqual([]);
    expect(schemaErrors('config', parse('history: true\ngate: { slowdown: 3 }'))).toEqual([]);
  });

  it('refuse what flakeguard refuses: an unknown key, a duration without a unit, a class triage does not have', () => {
    for (const text of [
      'budgets: { test: 5s }',
      'budget: { test: 5 }',
      'budget: { test: { linnux: 5s } }',
      'gate: { fragile: maybe }',
      'triage: { patterns: [{ match: x, class: gremlins, cause: y }] }',
      'history: { uri: postgres://u@h/db }',
    ]) {
      expect(() => parseConfig(text, 'flakeguard.yaml'), text).toThrow();
      expect(schemaErrors('config', parse(text)), text).not.toEqual([]);
    }
    const entry = { id: 'a1b2c3d4', test: 't', file: 'a.test.ts', added: '2026-12-01' };
    expect(schemaErrors('allowances', [{ ...entry, budget: '5s', reason: 'r' }])).toEqual([]);
    expect(schemaErrors('allowances', [{ ...entry, budget: '5s' }])).not.toEqual([]);
    expect(schemaErrors('allowances', [{ ...entry, quarantine: { reason: 'r', ticket: 'T-1' } }])).not.toEqual([]);
    expect(schemaErrors('allowances', [{ ...entry, id: 'XYZ', budget: '5s', reason: 'r' }])).not.toEqual([]);
  });
});
