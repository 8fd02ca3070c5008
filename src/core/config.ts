/**
 * `flakeguard.yaml`: parsed from text into a validated Config. Pure: the caller reads the file.
 * Every problem is reported with file:line:column and the accepted forms; nothing falls back to a
 * default silently.
 */
import { isMap, isScalar, LineCounter, type Node, parseDocument, type YAMLMap } from 'yaml';
import { type BudgetConfig, DEFAULT_BUDGET_CONFIG, parseBudgetConfig } from './budget/budget-config.js';
import { FlakeguardError } from './errors.js';
import { clipText, excerpt } from './excerpt.js';
import { DEFAULT_GATE_CONFIG, type GateConfig, parseGateConfig } from './gate/gate-config.js';
import { HISTORY_OFF, type HistoryConfig, parseHistoryConfig } from './history/history-config.js';
import { parseTriageConfig, type TriageConfig } from './triage/triage-config.js';
import { type Locate, makeLocator } from './yaml-values.js';

export interface Config {
  /** Test and file limits (core/budget/budget-config.ts). */
  readonly budget: BudgetConfig;
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
  /**
   * Seed every test of an ordinary run the way the gate seeds a try, and keep each test's seed in
   * the run record (docs/replay.md "Replays from CI"; needs the `flakeguard/seed` setup file).
   */
  readonly seed: boolean;
  /** `seed: node-crypto`: node:crypto's randomBytes, randomInt and randomUUID seeded too (absent: not). */
  readonly seedNodeCrypto?: boolean;
}

export const DEFAULT_CONFIG: Config = {
  budget: DEFAULT_BUDGET_CONFIG,
  allowances: 'allowances',
  records: '.flakeguard/runs',
  triage: { patterns: [] },
  history: HISTORY_OFF,
  gate: DEFAULT_GATE_CONFIG,
  seed: false,
};

const TOP_KEYS = ['budget', 'allowances', 'records', 'triage', 'history', 'gate', 'seed'] as const;

/** `seed`: true, false, or node-crypto (true, and node:crypto's random functions seeded too). */
function parseSeedSwitch(node: unknown, where: Locate): Pick<Config, 'seed' | 'seedNodeCrypto'> {
  const raw = isScalar(node) ? node.value : undefined;
  if (typeof raw === 'boolean') return { seed: raw };
  if (raw === 'node-crypto') return { seed: true, seedNodeCrypto: true };
  throw new FlakeguardError(
    'CONFIG_INVALID',
    `${where(node as Node)}: seed must be true, false or node-crypto, found ${excerpt(isScalar(node) ? node.value : node)}; write seed: true to seed every test and record its seed, seed: node-crypto to seed node:crypto's randomBytes, randomInt and randomUUID too (docs/replay.md "Replays from CI")`,
  );
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
  let seed: Pick<Config, 'seed' | 'seedNodeCrypto'> = { seed: DEFAULT_CONFIG.seed };
  for (const pair of contents.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    switch (key) {
      case 'budget':
        budget = parseBudgetConfig(pair.value, where, budget);
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
      case 'seed':
        seed = parseSeedSwitch(pair.value, where);
        break;
      default:
        throw new FlakeguardError(
          'CONFIG_INVALID',
          `${where(pair.key as Node)}: unknown key ${excerpt(key)}; use ${TOP_KEYS.join(', ')}`,
        );
    }
  }
  return { budget, allowances, records, triage, history, gate, ...seed };
}
