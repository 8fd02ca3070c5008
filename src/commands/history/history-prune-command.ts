/** `flakeguard history prune --keep 90d [--dry-run]`: retention for the history store. */
import { parseArgs } from 'node:util';
import { parseAge } from '../../core/history/history-age.js';
import { systemClock } from '../../io/clock.js';
import { pruneHistory } from '../../io/history/history-query.js';
import { describeTarget, openHistoryStore } from '../../io/history/history-store.js';
import { HISTORY_HELP, historyUsage, resolveHistoryPlace } from './history-place.js';

export async function runHistoryPrune(args: string[]): Promise<number> {
  let flags;
  try {
    flags = parseArgs({
      args,
      allowPositionals: false,
      options: { keep: { type: 'string' }, 'dry-run': { type: 'boolean' }, root: { type: 'string' }, url: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }).values;
  } catch (error) {
    throw historyUsage((error as Error).message);
  }
  if (flags.help) {
    process.stdout.write(`${HISTORY_HELP}\n`);
    return 0;
  }
  if (flags.keep === undefined) throw historyUsage('history prune needs --keep, e.g. --keep 90d');
  const age = parseAge(flags.keep, systemClock.now());
  if (!age.ok) throw historyUsage(`--keep ${age.message}`);
  const place = resolveHistoryPlace(flags);
  const store = await openHistoryStore(place.target, { mustExist: true }).catch((error: unknown) => {
    throw historyUsage(`cannot open the history store: ${(error as Error).message}`);
  });
  try {
    const dry = flags['dry-run'] === true;
    const result = await pruneHistory(store, age.cutoffMs, dry);
    const verb = dry ? 'would delete' : 'deleted';
    process.stdout.write(`flakeguard: history ${describeTarget(place.target)}: ${verb} ${result.runs} run${result.runs === 1 ? '' : 's'} started before ${age.since}${dry ? '' : ` and ${result.tests} test${result.tests === 1 ? '' : 's'} left without runs`}\n`);
  } finally {
    await store.close();
  }
  return 0;
}
