/**
 * `triage:` in flakeguard.yaml: the log signatures a project adds (`patterns`), each a text or a
 * regular expression with the class, cause and action triage gives a failure that matches it. Pure.
 */
import { isMap, isScalar, isSeq, type Node } from 'yaml';
import { FlakeguardError } from '../errors.js';
import { excerpt } from '../excerpt.js';
import type { Locate } from '../yaml-values.js';

export type FindingClass = 'infrastructure' | 'escape' | 'flake' | 'budget';

/** A log signature a project adds in `triage.patterns`. */
export interface PatternRule {
  readonly id: string;
  /** Literal text unless `regex` is true. */
  readonly match: string;
  readonly regex: boolean;
  readonly class: FindingClass;
  readonly cause: string;
  readonly action: string;
}

export interface TriageConfig {
  readonly patterns: readonly PatternRule[];
}

const CLASSES: readonly FindingClass[] = ['infrastructure', 'escape', 'flake', 'budget'];
const PATTERN_KEYS = ['match', 'regex', 'class', 'cause', 'action', 'id'];

export function parseTriageConfig(node: unknown, where: Locate): TriageConfig {
  if (!isMap(node))
    throw new FlakeguardError('CONFIG_INVALID', `${where(node as Node)}: triage must be a map with a patterns list`);
  const rules: PatternRule[] = [];
  for (const pair of node.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    if (key !== 'patterns') {
      throw new FlakeguardError(
        'CONFIG_INVALID',
        `${where(pair.key as Node)}: unknown key ${excerpt(`triage.${key}`)}; the only key is patterns`,
      );
    }
    if (!isSeq(pair.value)) {
      throw new FlakeguardError(
        'CONFIG_INVALID',
        `${where(pair.value as Node)}: triage.patterns must be a list of { match, class, cause, action }`,
      );
    }
    pair.value.items.forEach((item, index) => {
      rules.push(parsePatternRule(item, index, where));
    });
  }
  return { patterns: rules };
}

/** One entry of `triage.patterns`, checked key by key (the first problem throws). */
function parsePatternRule(item: unknown, index: number, where: Locate): PatternRule {
  const js = isMap(item) ? (item.toJSON() as Record<string, unknown>) : undefined;
  const at = where(item as Node);
  const fail = (message: string): never => {
    throw new FlakeguardError('CONFIG_INVALID', `${at}: triage.patterns[${index}]${message}`);
  };
  if (!js) return fail(' must be a map { match, class, cause, action }');
  for (const k of Object.keys(js)) {
    if (!PATTERN_KEYS.includes(k)) {
      throw new FlakeguardError(
        'CONFIG_INVALID',
        `${at}: unknown key ${excerpt(k)} in triage.patterns[${index}]; use match, regex, class, cause, action, id`,
      );
    }
  }
  const { match, class: cls, cause } = js;
  if (typeof match !== 'string' || match === '') return fail('.match must be non-empty text');
  if (typeof cls !== 'string' || !(CLASSES as readonly string[]).includes(cls))
    return fail(`.class must be one of ${CLASSES.join(', ')}`);
  if (typeof cause !== 'string' || cause === '') return fail('.cause must be non-empty text');
  for (const k of ['id', 'action'] as const) {
    if (js[k] !== undefined && typeof js[k] !== 'string') fail(`.${k} must be text, not ${excerpt(js[k])}`);
  }
  const regex = js['regex'] === true;
  if (regex) {
    try {
      new RegExp(match);
    } catch (error) {
      fail(`.match is not a valid regular expression: ${(error as Error).message}`);
    }
  }
  return {
    id: typeof js['id'] === 'string' ? js['id'] : `project-${index + 1}`,
    match,
    regex,
    class: cls as FindingClass,
    cause,
    action: typeof js['action'] === 'string' ? js['action'] : '',
  };
}
