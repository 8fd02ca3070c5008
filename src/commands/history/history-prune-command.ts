/** `flakeguard history prune --keep 90d [--dry-run]`: retention for the history store. */
import { parseAge } from '../../core/history/history-age.js';
import { systemClock } from '../../io/clock.js';
import { pruneHistory } from '../../io/history/history-query.js';
import { describeTarget } from '../../io/history/history-store.js';
import { commandUsageError, parseCommandArgs } from '../command-args.js';
import { HISTORY_COMMAND, HISTORY_PRUNE_USAGE } from './history-options.js';
import { openPlaceStore, resolveHistoryPlace } from './history-place.js';

export async function runHistoryPrune(args: string[]): Promise<number> {
  const parsed = parseCommandArgs(HISTORY_COMMAND, HISTORY_PRUNE_USAGE, args);
  if (parsed === 'help') return 0;
  const flags = parsed.values;
  if (flags.keep === undefined) throw commandUsageError(HISTORY_COMMAND, 'history prune needs --keep, e.g. --keep 90d');
  const age = parseAge(flags.keep, systemClock.now());
  if (!age.ok) throw commandUsageError(HISTORY_COMMAND, `--keep ${age.message}`);
  const place = resolveHistoryPlace(flags);
  const store = await openPlaceStore(place, true);
  try {
    const dry = flags['dry-run'] === true;
    const result = await pruneHistory(store, age.cutoffMs, dry);
    const verb = dry ? 'would delete' : 'deleted';
    process.stdout.write(
      `flakeguard: history ${describeTarget(place.target)}: ${verb} ${result.runs} run${result.runs === 1 ? '' : 's'} started before ${age.since}${dry ? '' : ` and ${result.tests} test${result.tests === 1 ? '' : 's'} left without runs`}\n`,
    );
  } finally {
    await store.close();
  }
  return 0;
}
