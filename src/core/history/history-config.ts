/**
 * The `history` key of flakeguard.yaml: off by default; `history: true` keeps an embedded store
 * under the records folder; `history: { url: postgres://... }` writes to a team's PostgreSQL.
 * FLAKEGUARD_HISTORY_URL (read at the edge) overrides both.
 */
import { isMap, isScalar, type Node } from 'yaml';
import { FlakeguardError } from '../errors.js';
import { excerpt } from '../excerpt.js';
import { redactSecrets } from '../secrets.js';

export type HistoryConfig =
  | { readonly kind: 'off' }
  | { readonly kind: 'embedded' }
  | { readonly kind: 'postgres'; readonly url: string };

export const HISTORY_OFF: HistoryConfig = { kind: 'off' };

const HISTORY_FORMS =
  'write history: true (embedded store), history: false, or history: { url: postgres://user@host/db }';

/** True for a URL the PostgreSQL client accepts: postgres:// or postgresql://. */
export function isPostgresUrl(text: string): boolean {
  return /^postgres(?:ql)?:\/\/\S+$/.test(text.trim());
}

export function parseHistoryConfig(node: unknown, where: (n: Node | null | undefined) => string): HistoryConfig {
  if (isScalar(node) && typeof node.value === 'boolean') return node.value ? { kind: 'embedded' } : HISTORY_OFF;
  if (isMap(node)) {
    let url: string | null = null;
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      if (key !== 'url') {
        throw new FlakeguardError(
          'CONFIG_INVALID',
          `${where(pair.key as Node)}: unknown key "history.${key}"; the only key is url (${HISTORY_FORMS})`,
        );
      }
      const raw = isScalar(pair.value) ? pair.value.value : undefined;
      if (typeof raw !== 'string' || !isPostgresUrl(raw)) {
        throw new FlakeguardError(
          'CONFIG_INVALID',
          `${where(pair.value as Node)}: history.url ${typeof raw === 'string' ? excerpt(redactSecrets(raw), 200) : excerpt(raw ?? null)} is not a PostgreSQL URL; write postgres://user:password@host:5432/database (or set FLAKEGUARD_HISTORY_URL)`,
        );
      }
      url = raw.trim();
    }
    if (url === null)
      throw new FlakeguardError('CONFIG_INVALID', `${where(node as Node)}: history needs a url; ${HISTORY_FORMS}`);
    return { kind: 'postgres', url };
  }
  const shown = isScalar(node) ? JSON.stringify(node.value) : 'this value';
  throw new FlakeguardError(
    'CONFIG_INVALID',
    `${where(node as Node)}: history ${shown} is not a history setting; ${HISTORY_FORMS}`,
  );
}
