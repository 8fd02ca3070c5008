/** `flakeguard history prune --keep 90d [--dry-run]`: retention for the history store. */
import { parseAge } from '../../core/history/history-age.js';
import { formatUsage, type OptionTable } from '../../core/usage.js';
import { systemClock } from '../../io/clock.js';
import { pruneHistory } from '../../io/history/history-query.js';
import { describeTarget } from '../../io/history/history-store.js';
import {
  HISTORY_DOCS,
  HISTORY_EXIT,
  historyUsage,
  openPlaceStore,
  parseHistoryArgs,
  resolveHistoryPlace,
  STORE_OPTIONS,
} from './history-place.js';

export const HISTORY_PRUNE_OPTIONS: OptionTable = {
  keep: {
    type: 'string',
    value: '<age>',
    help: 'keep the runs started in the last 90d (12w, or since a day: 2026-01-01); delete the older ones',
  },
  'dry-run': { type: 'boolean', help: 'count what would be deleted, delete nothing' },
  ...STORE_OPTIONS,
};

const USAGE = formatUsage({
  synopsis: ['flakeguard history prune --keep 90d [options]'],
  summary: 'Retention: deletes the runs older than --keep (with their results) and the tests left without a run.',
  options: HISTORY_PRUNE_OPTIONS,
  exit: HISTORY_EXIT,
  docs: HISTORY_DOCS,
});

export async function runHistoryPrune(args: string[]): Promise<number> {
  const flags = parseHistoryArgs(args, HISTORY_PRUNE_OPTIONS).values as {
    keep?: string;
    'dry-run'?: boolean;
    root?: string;
    url?: string;
    help?: boolean;
  };
  if (flags.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (flags.keep === undefined) throw historyUsage('history prune needs --keep, e.g. --keep 90d');
  const age = parseAge(flags.keep, systemClock.now());
  if (!age.ok) throw historyUsage(`--keep ${age.message}`);
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
