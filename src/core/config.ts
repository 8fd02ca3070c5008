/**
 * `flakeguard.yaml`: parsed from text into a validated Config. Pure: the caller reads the file.
 * Every problem is reported with file:line:column and the accepted forms; nothing falls back to a
 * default silently.
 */
import { isMap, isScalar, LineCounter, type Node, parseDocument, type YAMLMap } from 'yaml';
import { FlakeguardError } from './errors.js';
import { clipText, excerpt } from './excerpt.js';
import { DEFAULT_GATE_CONFIG, type GateConfig, parseGateConfig } from './gate/gate-config.js';
import { HISTORY_OFF, type HistoryConfig, parseHistoryConfig } from './history/history-config.js';
import type { PlatformValue } from './platform-value.js';
import { parseTriageConfig, type TriageConfig } from './triage/triage-config.js';
import { type Locate, makeLocator, parsePlatformDuration } from './yaml-values.js';

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
  /** Log signatures the project adds (core/triage/triage-config.ts). */
  readonly triage: TriageConfig;
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

function parseWarnAt(node: unknown, where: Locate): number {
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

function parseFolder(node: unknown, where: Locate, key: string): string {
  const raw = isScalar(node) ? node.value : undefined;
  if (typeof raw !== 'string' || raw.trim() === '') {
    throw new FlakeguardError(
      'CONFIG_INVALID',
      `${where(node as Node)}: ${key} must be a folder path relative to the project root`,
    );
  }
  return raw.trim().replace(/\\/g, '/').replace(/\/+$/, '');
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
  return parseSections(contents, where);
}

/** Each top-level key in turn; a key left out keeps its default. */
function parseSections(contents: YAMLMap, where: Locate): Config {
  let budget = DEFAULT_CONFIG.budget;
  let allowances = DEFAULT_CONFIG.allowances;
  let records = DEFAULT_CONFIG.records;
  let triage = DEFAULT_CONFIG.triage;
  let history = DEFAULT_CONFIG.history;
  let gate = DEFAULT_CONFIG.gate;
  for (const pair of contents.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    switch (key) {
      case 'budget':
        budget = parseBudget(pair.value, where, budget);
        break;
      case 'allowances':
        allowances = parseFolder(pair.value, where, 'allowances');
        break;
      case 'records':
        records = parseFolder(pair.value, where, 'records');
        break;
      case 'triage':
        triage = parseTriageConfig(pair.value, where);
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

/** `budget:`: test, file and warnAt; a key left out keeps its value in `current`. */
function parseBudget(node: unknown, where: Locate, current: Config['budget']): Config['budget'] {
  if (!isMap(node)) {
    throw new FlakeguardError(
      'CONFIG_INVALID',
      `${where(node as Node)}: budget must be a map with keys ${BUDGET_KEYS.join(', ')}`,
    );
  }
  let { test, file, warnAt } = current;
  for (const b of node.items) {
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
  return { test, file, warnAt };
}
