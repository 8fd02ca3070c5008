/**
 * `flakeguard.yaml`: parsed from text into a validated Config. Pure: the caller reads the file.
 * Every problem is reported with file:line:column and the accepted forms; nothing falls back to a
 * default silently.
 */
import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import { DURATION_FORMS, parseDuration } from './duration.js';
import { FlakeguardError } from './errors.js';
import { clipText, excerpt } from './excerpt.js';
import { DEFAULT_GATE_CONFIG, type GateConfig, parseGateConfig } from './gate/gate-config.js';
import { HISTORY_OFF, type HistoryConfig, parseHistoryConfig } from './history/history-config.js';
import { isPlatformKey, PLATFORMS, type PlatformKey, type PlatformValue } from './platform-value.js';

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

export interface Config {
  readonly budget: {
    readonly test: PlatformValue<number>;
    readonly file: PlatformValue<number> | null;
    /** Share of the limit, 0..1, at or above which a test is near budget. */
    readonly warnAt: number;
  };
  /** Folder of allowance files, relative to the root. */
  readonly allowances: string;
  /** Folder of run records, relative to the root. */
  readonly records: string;
  readonly triage: { readonly patterns: readonly PatternRule[] };
  /** Flake and duration history (docs/history.md); off by default. */
  readonly history: HistoryConfig;
  /** The gate's reference slowdown and what a fragile test does (core/gate/gate-config.ts). */
  readonly gate: GateConfig;
}

/** The test budget when flakeguard.yaml names none, or names neither this platform nor `default`. */
export const DEFAULT_TEST_BUDGET_MS = 5000;

export const DEFAULT_CONFIG: Config = {
  budget: { test: { kind: 'single', value: DEFAULT_TEST_BUDGET_MS }, file: null, warnAt: 0.8 },
  allowances: 'allowances',
  records: '.flakeguard/runs',
  triage: { patterns: [] },
  history: HISTORY_OFF,
  gate: DEFAULT_GATE_CONFIG,
};

const TOP_KEYS = ['budget', 'allowances', 'records', 'triage', 'history', 'gate'] as const;
const BUDGET_KEYS = ['test', 'file', 'warnAt'] as const;
const CLASSES: readonly FindingClass[] = ['infrastructure', 'escape', 'flake', 'budget'];

/** Turns a yaml node position into `file:line:column`. */
export function makeLocator(fileName: string, lineCounter: LineCounter) {
  return (node: Node | null | undefined): string => {
    const offset = node?.range?.[0];
    if (offset === undefined) return fileName;
    const { line, col } = lineCounter.linePos(offset);
    return `${fileName}:${line}:${col}`;
  };
}

/** Parses a duration or a per-platform map of durations at `node`. */
export function parsePlatformDuration(
  node: unknown,
  where: (n: Node | null | undefined) => string,
  what: string,
): PlatformValue<number> {
  if (isScalar(node)) {
    const parsed = parseDuration(node.value);
    if (!parsed.ok) throw new FlakeguardError('CONFIG_INVALID', `${where(node)}: ${what} ${parsed.message}`);
    return { kind: 'single', value: parsed.ms };
  }
  if (isMap(node)) {
    const values: Partial<Record<PlatformKey, number>> = {};
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      if (!isPlatformKey(key)) {
        throw new FlakeguardError(
          'CONFIG_INVALID',
          `${where(pair.key as Node)}: unknown platform ${excerpt(key)} in ${what}; use one of ${PLATFORMS.join(', ')} or default`,
        );
      }
      const parsed = parseDuration(isScalar(pair.value) ? pair.value.value : undefined);
      if (!parsed.ok) {
        throw new FlakeguardError('CONFIG_INVALID', `${where(pair.value as Node)}: ${what}.${key} ${parsed.message}`);
      }
      values[key] = parsed.ms;
    }
    return { kind: 'map', values };
  }
  throw new FlakeguardError(
    'CONFIG_INVALID',
    `${where(node as Node)}: ${what} must be a duration or a map by platform, e.g. { linux: 5s, default: 5s }; ${DURATION_FORMS}`,
  );
}

function parseWarnAt(node: unknown, where: (n: Node | null | undefined) => string): number {
  const raw = isScalar(node) ? node.value : undefined;
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  const match = /^(\d+(?:\.\d+)?)%$/.exec(text);
  const share = match ? Number(match[1]) / 100 : Number.NaN;
  if (!(share > 0 && share <= 1)) {
    throw new FlakeguardError(
      'CONFIG_INVALID',
      `${where(node as Node)}: budget.warnAt ${excerpt(text)} is not a share; write a percentage between 1% and 100%, e.g. 80%`,
    );
  }
  return share;
}

function parseFolder(node: unknown, where: (n: Node | null | undefined) => string, key: string): string {
  const raw = isScalar(node) ? node.value : undefined;
  if (typeof raw !== 'string' || raw.trim() === '') {
    throw new FlakeguardError(
      'CONFIG_INVALID',
      `${where(node as Node)}: ${key} must be a folder path relative to the project root`,
    );
  }
  return raw.trim().replace(/\\/g, '/').replace(/\/+$/, '');
}

function parsePatterns(node: unknown, where: (n: Node | null | undefined) => string): PatternRule[] {
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
      const js = isMap(item) ? (item.toJSON() as Record<string, unknown>) : undefined;
      const at = where(item as Node);
      if (!js)
        throw new FlakeguardError(
          'CONFIG_INVALID',
          `${at}: triage.patterns[${index}] must be a map { match, class, cause, action }`,
        );
      for (const k of Object.keys(js)) {
        if (!['match', 'regex', 'class', 'cause', 'action', 'id'].includes(k)) {
          throw new FlakeguardError(
            'CONFIG_INVALID',
            `${at}: unknown key ${excerpt(k)} in triage.patterns[${index}]; use match, regex, class, cause, action, id`,
          );
        }
      }
      const cls = js['class'];
      if (typeof js['match'] !== 'string' || js['match'] === '') {
        throw new FlakeguardError('CONFIG_INVALID', `${at}: triage.patterns[${index}].match must be non-empty text`);
      }
      if (typeof cls !== 'string' || !(CLASSES as readonly string[]).includes(cls)) {
        throw new FlakeguardError(
          'CONFIG_INVALID',
          `${at}: triage.patterns[${index}].class must be one of ${CLASSES.join(', ')}`,
        );
      }
      if (typeof js['cause'] !== 'string' || js['cause'] === '') {
        throw new FlakeguardError('CONFIG_INVALID', `${at}: triage.patterns[${index}].cause must be non-empty text`);
      }
      for (const k of ['id', 'action'] as const) {
        if (js[k] !== undefined && typeof js[k] !== 'string') {
          throw new FlakeguardError(
            'CONFIG_INVALID',
            `${at}: triage.patterns[${index}].${k} must be text, not ${excerpt(js[k])}`,
          );
        }
      }
      const regex = js['regex'] === true;
      if (regex) {
        try {
          new RegExp(js['match']);
        } catch (error) {
          throw new FlakeguardError(
            'CONFIG_INVALID',
            `${at}: triage.patterns[${index}].match is not a valid regular expression: ${(error as Error).message}`,
          );
        }
      }
      rules.push({
        id: typeof js['id'] === 'string' ? js['id'] : `project-${index + 1}`,
        match: js['match'],
        regex,
        class: cls as FindingClass,
        cause: js['cause'],
        action: typeof js['action'] === 'string' ? js['action'] : '',
      });
    });
  }
  return rules;
}

export function parseConfig(text: string, fileName: string): Config {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const where = makeLocator(fileName, lineCounter);
  const firstError = doc.errors[0];
  if (firstError) {
    // linePos is only filled in with prettyErrors; the offset is always there.
    const pos = firstError.linePos?.[0] ?? lineCounter.linePos(firstError.pos[0]);
    const at = `${fileName}:${pos.line}:${pos.col}`;
    throw new FlakeguardError(
      'CONFIG_INVALID',
      `${at}: YAML syntax error: ${clipText(firstError.message.split('\n')[0] ?? '', 120)}; fix the YAML (see README "Config")`,
    );
  }
  const contents = doc.contents;
  if (contents === null || (isScalar(contents) && contents.value === null)) return DEFAULT_CONFIG;
  if (!isMap(contents)) {
    throw new FlakeguardError(
      'CONFIG_INVALID',
      `${where(contents)}: flakeguard.yaml must be a map with keys ${TOP_KEYS.join(', ')}`,
    );
  }
  let budget = DEFAULT_CONFIG.budget;
  let allowances = DEFAULT_CONFIG.allowances;
  let records = DEFAULT_CONFIG.records;
  let triage = DEFAULT_CONFIG.triage;
  let history = DEFAULT_CONFIG.history;
  let gate = DEFAULT_CONFIG.gate;
  for (const pair of contents.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    switch (key) {
      case 'budget': {
        if (!isMap(pair.value)) {
          throw new FlakeguardError(
            'CONFIG_INVALID',
            `${where(pair.value as Node)}: budget must be a map with keys ${BUDGET_KEYS.join(', ')}`,
          );
        }
        let test = budget.test;
        let file = budget.file;
        let warnAt = budget.warnAt;
        for (const b of pair.value.items) {
          const bk = isScalar(b.key) ? String(b.key.value) : '';
          if (bk === 'test') test = parsePlatformDuration(b.value, where, 'budget.test');
          else if (bk === 'file') file = parsePlatformDuration(b.value, where, 'budget.file');
          else if (bk === 'warnAt') warnAt = parseWarnAt(b.value, where);
          else {
            throw new FlakeguardError(
              'CONFIG_INVALID',
              `${where(b.key as Node)}: unknown key ${excerpt(`budget.${bk}`)}; use ${BUDGET_KEYS.join(', ')}`,
            );
          }
        }
        budget = { test, file, warnAt };
        break;
      }
      case 'allowances':
        allowances = parseFolder(pair.value, where, 'allowances');
        break;
      case 'records':
        records = parseFolder(pair.value, where, 'records');
        break;
      case 'triage':
        triage = { patterns: parsePatterns(pair.value, where) };
        break;
      case 'history':
        history = parseHistoryConfig(pair.value, where);
        break;
      case 'gate':
        gate = parseGateConfig(pair.value, where);
        break;
      default:
        throw new FlakeguardError(
          'CONFIG_INVALID',
          `${where(pair.key as Node)}: unknown key ${excerpt(key)}; use ${TOP_KEYS.join(', ')}`,
        );
    }
  }
  return { budget, allowances, records, triage, history, gate };
}
