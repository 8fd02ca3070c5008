/**
 * The YAML reading that flakeguard.yaml and the allowance files share: where a node stands
 * (file:line:column, for every message) and a duration, or a map of durations by platform. Pure.
 */
import { isMap, isScalar, type LineCounter, type Node } from 'yaml';
import { DURATION_FORMS, parseDuration } from './duration.js';
import { FlakeguardError } from './errors.js';
import { excerpt } from './excerpt.js';
import { isPlatformKey, PLATFORMS, type PlatformKey, type PlatformValue } from './platform-value.js';

/** Where a YAML node stands, as `file:line:column` (the file alone for a node without a range). */
export type Locate = (n: Node | null | undefined) => string;

/** Turns a yaml node position into `file:line:column`. */
export function makeLocator(fileName: string, lineCounter: LineCounter): Locate {
  return (node: Node | null | undefined): string => {
    const offset = node?.range?.[0];
    if (offset === undefined) return fileName;
    const { line, col } = lineCounter.linePos(offset);
    return `${fileName}:${line}:${col}`;
  };
}

/** Parses a duration or a per-platform map of durations at `node`. */
export function parsePlatformDuration(node: unknown, where: Locate, what: string): PlatformValue<number> {
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
