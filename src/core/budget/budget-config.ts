/**
 * The `budget:` section of flakeguard.yaml: the test and file limits and the share of a limit at
 * which a test is near it. Its own module below core/budget/ and core/config.ts, which both read it.
 */
import { isMap, isScalar, type Node } from 'yaml';
import { FlakeguardError } from '../errors.js';
import { excerpt } from '../excerpt.js';
import type { PlatformValue } from '../platform-value.js';
import { type Locate, parsePlatformDuration } from '../yaml-values.js';

export interface BudgetConfig {
  readonly test: PlatformValue<number>;
  readonly file: PlatformValue<number> | null;
  /** Share of the limit, 0..1, at or above which a test is near budget. */
  readonly warnAt: number;
}

/** The test budget when flakeguard.yaml names none, or names neither this platform nor `default`. */
export const DEFAULT_TEST_BUDGET_MS = 5000;

export const DEFAULT_BUDGET_CONFIG: BudgetConfig = {
  test: { kind: 'single', value: DEFAULT_TEST_BUDGET_MS },
  file: null,
  warnAt: 0.8,
};

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

/** `budget:`: test, file and warnAt; a key left out keeps its value in `current`. */
export function parseBudgetConfig(node: unknown, where: Locate, current: BudgetConfig): BudgetConfig {
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
