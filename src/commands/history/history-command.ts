/**
 * `flakeguard history`: what the store remembers about each test (the default), `history ingest`
 * (load run records kept as CI artifacts) and `history prune --keep 90d`. The store is the one the
 * reporter writes to: `history` in flakeguard.yaml, FLAKEGUARD_HISTORY_URL, or --url.
 * Exit codes: 0 done, 2 could not run (usage, config, store unreachable or newer).
 */
import { commandUsageError } from '../command-args.js';
import { HISTORY_COMMAND } from './history-options.js';

export async function runHistoryCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'ingest') return (await import('./history-ingest-command.js')).runHistoryIngest(rest);
  if (sub === 'prune') return (await import('./history-prune-command.js')).runHistoryPrune(rest);
  if (sub !== undefined && !sub.startsWith('-'))
    throw commandUsageError(
      HISTORY_COMMAND,
      `unknown history command "${sub}"; use ingest, prune, or flags for a query`,
    );
  return (await import('./history-query-command.js')).runHistoryQuery(args);
}
