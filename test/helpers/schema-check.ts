/**
 * The shipped JSON Schemas (schemas/*.schema.json) as validators, for tests that check what a builder
 * writes against the schema a user's program or editor reads (issue 47). Ajv with `strict` on: a
 * schema keyword Ajv does not know is an error too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

const SCHEMAS = path.resolve(import.meta.dirname, '../../schemas');

/** The file names under schemas/, without `.schema.json`. */
export function schemaNames(): string[] {
  return readdirSync(SCHEMAS)
    .filter((f) => f.endsWith('.schema.json'))
    .map((f) => f.slice(0, -'.schema.json'.length))
    .sort();
}

export function readSchema(name: string, folder = SCHEMAS): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(folder, `${name}.schema.json`), 'utf8')) as Record<string, unknown>;
}

const compiled = new Map<string, ValidateFunction>();

function validatorOf(name: string, folder: string): ValidateFunction {
  const key = path.join(folder, name);
  const known = compiled.get(key);
  if (known) return known;
  const validate = new Ajv2020({ allErrors: true, strict: true }).compile(readSchema(name, folder));
  compiled.set(key, validate);
  return validate;
}

/**
 * Each way the value breaks the schema, `<path> <message> <params>`; empty when it validates.
 * `folder`: where the schemas are (default this checkout's schemas/; an installed package's).
 */
export function schemaErrors(name: string, value: unknown, folder = SCHEMAS): string[] {
  const validate = validatorOf(name, folder);
  // The value as a program reads it: through JSON, so `undefined` fields are gone as they are in the file.
  if (validate(JSON.parse(JSON.stringify(value)))) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}
